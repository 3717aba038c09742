import type { ExecOptions, ExecResult } from '../../devbox-driver.ts'
import { WorkspacePathError } from '../../devbox-driver.ts'
import { boxEnvironment } from './box-environment.ts'
import type { BoxSandbox } from './box-sandbox.ts'
import { runCommand } from './run-command.ts'
import { resolveWorkspacePath } from './workspace-path.ts'
import { diskLimitMessage, measureWorkspaceBytes } from './workspace-usage.ts'

const maxTimeoutSeconds = 60 * 60
const diskCheckIntervalMs = 1000

/**
 * Runs `bash -lc command` in the workspace, inside the box's sandbox. `stopAll` (the box being
 * destroyed) aborts every command still running. A command is refused while the workspace is
 * over its disk limit, and stopped when it grows past it.
 */
export function createBoxExec(input: {
  workspacePath: string
  sandbox: BoxSandbox
  stopAll: AbortSignal
  diskLimitMb: number
}) {
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
    await input.sandbox.assertDiskSpace()
    await input.sandbox.prepare()
    const environment = boxEnvironment(input.sandbox.workspaceInside, {
      ...options.env,
      ...input.sandbox.environment,
    })
    const overDisk = new AbortController()
    let overDiskMessage: string | undefined
    const diskWatch = setInterval(() => {
      void measureWorkspaceBytes(input.workspacePath).then((used) => {
        if (used <= input.diskLimitMb * 1024 * 1024 || overDisk.signal.aborted) return
        overDiskMessage = diskLimitMessage(used, input.diskLimitMb)
        overDisk.abort()
      })
    }, diskCheckIntervalMs)
    try {
      const result = await runCommand({
        argv: input.sandbox.commandFor({
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
      })
      if (!overDiskMessage) return result
      const notice = `\n[Stopped: ${overDiskMessage}]\n`
      options.onOutput?.(notice)
      return { ...result, aborted: false, output: `${result.output}${notice}` }
    } finally {
      clearInterval(diskWatch)
    }
  }
}
