import { existsSync } from 'node:fs'
import path from 'node:path'

const systemFolders = [
  '/usr/bin',
  '/bin',
  '/usr/sbin',
  '/sbin',
  '/usr/local/bin',
  '/usr/local/sbin',
]

/** A system program by name (nsenter, mkfs.ext4…), from the system's folders, not the PATH. */
export function findSystemTool(name: string): string | undefined {
  return systemFolders
    .map((folder) => path.join(folder, name))
    .find((candidate) => existsSync(candidate))
}
