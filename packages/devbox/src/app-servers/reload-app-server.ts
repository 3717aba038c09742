import type { AppServerManagerState } from './app-server-manager-state.ts'
import { drainAndStopAppServer } from './drain-app-server.ts'
import { launchAppServer } from './launch-app-server.ts'
import { adoptAppServer } from './start-app-server.ts'

/**
 * The app's environment changed (a vault secret): a running server is replaced by one started
 * with the new values, without failing a request (as a deploy switches); a stopped one gets them
 * when it next starts.
 */
export async function reloadAppServer(state: AppServerManagerState, appId: string) {
  const entry = state.entries.get(appId)
  const running = entry?.current
  if (!entry || !running || state.closed) return
  const generation = entry.generation
  const instance = await launchAppServer(state, entry, running.deployId)
  // A deploy or a stop came meanwhile: that one decides which server runs.
  if (entry.generation !== generation || entry.current !== running) {
    await instance.stop()
    return
  }
  entry.generation += 1
  entry.current = undefined
  adoptAppServer(state, entry, instance)
  await drainAndStopAppServer(state, running)
}
