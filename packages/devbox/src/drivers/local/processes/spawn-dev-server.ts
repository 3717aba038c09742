import type { ChildProcess } from 'node:child_process'
import { guarded } from '../../../guarded.ts'
import { boxEnvironment } from '../sandbox/box-environment.ts'
import { appendLog, type DevServerState } from './dev-server-state.ts'
import { spawnProcessGroup } from './process-group.ts'

/**
 * Starts `npm run dev` on `port` in the box and keeps its output, redacted; `onExit` hears the
 * process's end. The app's output and its process's events reach here: a fault stays with this box.
 */
export function spawnDevServer(
  state: DevServerState,
  port: number,
  onExit: (exited: ChildProcess, code: number | null, signal: NodeJS.Signals | null) => void,
): ChildProcess {
  const { sandbox, logger } = state
  const environmentFile = sandbox.environmentFile
  const environment = boxEnvironment(sandbox.workspaceInside, {
    ...state.env,
    ...state.extraEnv,
    ...sandbox.environment,
    ...(environmentFile ? { SPROUT_ENV_FILE: environmentFile.inside } : {}),
    PORT: String(port),
  })
  const command = sandbox.commandFor({
    cwd: state.workspacePath,
    script: 'exec npm run dev',
    path: environment.PATH ?? '',
  })
  const serverProcess = spawnProcessGroup(command, { cwd: state.workspacePath, env: environment })
  state.child = serverProcess
  // Values taken without a restart change the redactor of a running server's output too.
  let outputRedactor = state.redactor
  let output = state.redactor.stream()
  const where = `The dev server of box ${state.boxId}`
  const keep = guarded(logger, `${where}: its output`, (text: string) => {
    if (outputRedactor !== state.redactor) {
      appendLog(state, output.flush())
      outputRedactor = state.redactor
      output = state.redactor.stream()
    }
    appendLog(state, output.push(text))
  })
  serverProcess.stdout?.setEncoding('utf8').on('data', keep)
  serverProcess.stderr?.setEncoding('utf8').on('data', keep)
  serverProcess.once(
    'close',
    guarded(logger, `${where}: its close`, () => appendLog(state, output.flush())),
  )
  serverProcess.on(
    'error',
    guarded(logger, `${where}: its error`, (error: Error) => {
      if (state.child === serverProcess) state.child = undefined
      appendLog(state, `\n${error.message}\n`)
    }),
  )
  serverProcess.on(
    'exit',
    guarded(logger, `${where}: its exit`, (code: number | null, signal: NodeJS.Signals | null) =>
      onExit(serverProcess, code, signal),
    ),
  )
  return serverProcess
}
