import type { ExecOptions, ExecResult } from '../../devbox-driver.ts'
import { WorkspacePathError } from '../../devbox-driver.ts'
import { boxEnvironment } from './box-environment.ts'
import { runCommand } from './run-command.ts'
import type { Sandbox } from './sandbox.ts'
import { resolveWorkspacePath } from './workspace-path.ts'

const maxTimeoutSeconds = 60 * 60

/**
 * Runs `bash -lc command` in the workspace, inside the sandbox when there is one. `stopAll`
 * (the box being destroyed) aborts every command still running.
 */
export function createBoxExec(input: {
  workspacePath: string
  sandbox: Sandbox
  stopAll: AbortSignal
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
    const environment = boxEnvironment(input.workspacePath, options.env)
    return runCommand({
      argv: input.sandbox.commandFor({
        workspacePath: input.workspacePath,
        cwd: cwd.absolutePath,
        script: command,
        path: environment.PATH ?? '',
      }),
      cwd: cwd.absolutePath,
      env: environment,
      timeoutSeconds: options.timeoutSeconds,
      signal: options.signal ? AbortSignal.any([options.signal, input.stopAll]) : input.stopAll,
      onOutput: options.onOutput,
      outputLimitBytes: options.outputLimitBytes,
    })
  }
}
