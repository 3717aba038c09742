import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { WorkspacePathError } from '../../../devbox-driver.ts'

const runFile = promisify(execFile)

/**
 * Bytes the folders take together (`du`, links not followed, one file system each), where the box's
 * limit is measured rather than enforced by a disk image (box-disk.ts). Files deleted while still
 * open are not seen; an image counts them.
 */
export async function measureBoxBytes(folders: string[]): Promise<number> {
  if (folders.length === 0) return 0
  // A missing folder makes du exit 1 while it still prints the others.
  const { stdout } = await runFile('du', ['-s', '-k', '-x', ...folders], {
    maxBuffer: 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
  let kilobytes = 0
  for (const line of stdout.split('\n')) {
    const size = Number.parseInt(line.split('\t')[0] ?? '', 10)
    if (Number.isFinite(size)) kilobytes += size
  }
  return kilobytes * 1024
}

/** Disk space the workspace takes, in bytes. */
export function measureWorkspaceBytes(workspacePath: string): Promise<number> {
  return measureBoxBytes([workspacePath])
}

export function diskLimitMessage(usedBytes: number, limitMb: number): string {
  const usedMb = Math.ceil(usedBytes / (1024 * 1024))
  return `The app's workspace and data folder use ${usedMb.toLocaleString('en-US')} MB, over its limit of ${limitMb.toLocaleString('en-US')} MB (DEVBOX_DISK_MB). Delete files (build output, large downloads) with the delete tool to free space; commands and file writes are refused until then.`
}

/** Throws a clear error when the folders (workspace, data folder) are over the disk limit. */
export async function assertWithinDiskLimit(
  workspacePath: string,
  limitMb: number,
  otherFolders: string[] = [],
): Promise<void> {
  const used = await measureBoxBytes([workspacePath, ...otherFolders])
  if (used > limitMb * 1024 * 1024) {
    throw new WorkspacePathError(diskLimitMessage(used, limitMb), 'disk-full')
  }
}
