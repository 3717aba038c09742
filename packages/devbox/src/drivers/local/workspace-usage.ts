import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { WorkspacePathError } from '../../devbox-driver.ts'

const runFile = promisify(execFile)

/** Disk space the workspace takes, in bytes (`du`, links not followed, one file system). */
export async function measureWorkspaceBytes(workspacePath: string): Promise<number> {
  const { stdout } = await runFile('du', ['-s', '-k', '-x', workspacePath], {
    maxBuffer: 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
  const kilobytes = Number.parseInt(stdout.split('\t')[0] ?? '', 10)
  return Number.isFinite(kilobytes) ? kilobytes * 1024 : 0
}

export function diskLimitMessage(usedBytes: number, limitMb: number): string {
  const usedMb = Math.ceil(usedBytes / (1024 * 1024))
  return `The workspace uses ${usedMb.toLocaleString('en-US')} MB, over its limit of ${limitMb.toLocaleString('en-US')} MB (DEVBOX_DISK_MB). Delete files (build output, large downloads) with the delete tool to free space; commands and file writes are refused until then.`
}

/** Throws a clear error when the workspace is over its disk limit. */
export async function assertWithinDiskLimit(workspacePath: string, limitMb: number): Promise<void> {
  const used = await measureWorkspaceBytes(workspacePath)
  if (used > limitMb * 1024 * 1024) {
    throw new WorkspacePathError(diskLimitMessage(used, limitMb), 'disk-full')
  }
}
