import type { DevServerState } from './dev-server-state.ts'
import { launchDevServer, scheduleDevServerRestart } from './launch-dev-server.ts'

/** Starts the server unless it runs or is starting; a failed start keeps restarts trying. */
export async function startDevServer(state: DevServerState): Promise<void> {
  state.wanted = 'running'
  if (state.status === 'running') return
  if (state.status === 'starting' && state.starting) return state.starting
  if (state.restartTimer) {
    clearTimeout(state.restartTimer)
    state.restartTimer = undefined
  }
  state.starting = launchDevServer(state)
  try {
    await state.starting
  } catch (error) {
    state.status = 'crashed'
    scheduleDevServerRestart(state)
    throw error
  }
}
