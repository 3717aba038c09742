import { type DevServerState, stopGraceMs } from './dev-server-state.ts'
import { killProcessGroup } from './process-group.ts'

/** Stops the server and its pending restart; resolves once its process has exited. */
export async function stopDevServer(state: DevServerState): Promise<void> {
  state.wanted = 'stopped'
  if (state.restartTimer) clearTimeout(state.restartTimer)
  state.restartTimer = undefined
  const running = state.child
  if (running?.pid !== undefined && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve))
    await killProcessGroup(running.pid, stopGraceMs)
    await exited
  }
  state.child = undefined
  state.status = 'stopped'
}
