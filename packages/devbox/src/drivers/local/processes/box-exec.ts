import type { ExecOptions, ExecResult } from '../../../devbox-driver.ts'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { guarded } from '../../../guarded.ts'
import { type BoxDiskUsage, measuredDisk } from '../sandbox/box-disk.ts'
import { boxEnvironment } from '../sandbox/box-environment.ts'
import type { BoxSandbox } from '../sandbox/box-sandbox.ts'
import { resolveWorkspacePath } from '../workspace/workspace-path.ts'
import { runCommand } from './run-command.ts'

const maxTimeoutSeconds = 60 * 60
const diskCheckIntervalMs = 1000

/**
 * Runs `bash -lc command` in the box's sandbox; `stopAll` aborts all. Over a measured disk limit a
 * command is refused, or stopped when it grows past it; on an image-enforced disk writes fail with
 * ENOSPC and the builder is told the disk is full.
 */
export function createBoxExec(input: {
  workspacePath: string
  sandbox: BoxSandbox
  stopAll: AbortSignal
  diskLimitMb: number
  /** The box's disk (box-disk.ts); by default the workspace alone, measured. */
  disk?: BoxDiskUsage
}) {
  const disk = input.disk ?? measuredDisk([input.workspacePath], input.diskLimitMb)
  const assertSpace = input.disk ? input.disk.assertSpace : input.sandbox.assertDiskSpace
  return async (command: string, options: ExecOptions): Promise<ExecResult> => {
    if (!(options.timeoutSeconds > 0) || options.timeoutSeconds > maxTimeoutSeconds) {
      throw new Error(
        `timeoutSeconds must be between 0 and ${maxTimeoutSeconds}, got ${options.timeoutSeconds}`,
      )
    }
    const cwd = await resolveWorkspacePath(input.workspacePath, options.cwd ?? '.')
    if (cwd.kind !== 'directory') {
      throw new WorkspacePathError(
        `Working directory ${JSON.stringify(options.cwd)} is not a folder`,
        'not-a-directory',
      )
    }
    await assertSpace()
    await input.sandbox.prepare()
    const environment = boxEnvironment(input.sandbox.workspaceInside, {
      ...options.env,
      ...input.sandbox.environment,
    })
    const overDisk = new AbortController()
    let overDiskMessage: string | undefined
    // A measured disk is watched during the command; an image refuses writes by itself.
    const diskWatch =
      disk.enforcedBy === 'measurement'
        ? setInterval(
            // A failed measurement is logged: a rejection here would end the server.
            guarded(console, 'A box command: its disk check', async () => {
              const notice = await disk.fullNotice('')
              if (!notice || overDisk.signal.aborted) return
              overDiskMessage = notice
              overDisk.abort()
            }),
            diskCheckIntervalMs,
          )
        : undefined
    try {
      const result = await runCommand({
        command: input.sandbox.commandFor({
          cwd: cwd.absolutePath,
          script: command,
          path: environment.PATH ?? '',
        }),
        cwd: cwd.absolutePath,
        env: environment,
        timeoutSeconds: options.timeoutSeconds,
        signal: AbortSignal.any(
          [options.signal, input.stopAll, overDisk.signal].filter(
            (signal): signal is AbortSignal => signal !== undefined,
          ),
        ),
        onOutput: options.onOutput,
        outputLimitBytes: options.outputLimitBytes,
        streamPastLimit: options.streamPastLimit,
      })
      if (!overDiskMessage) {
        if (disk.enforcedBy === 'measurement') return result
        const full = await disk.fullNotice(result.output)
        if (!full) return result
        const fullLine = `\n[${full}]\n`
        options.onOutput?.(fullLine)
        return { ...result, output: `${result.output}${fullLine}` }
      }
      const notice = `\n[Stopped: ${overDiskMessage}]\n`
      options.onOutput?.(notice)
      return { ...result, aborted: false, output: `${result.output}${notice}` }
    } finally {
      clearInterval(diskWatch)
    }
  }
}
