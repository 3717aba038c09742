import type { AppServerInstance } from './app-server-instance.ts'
import { type AppServerManagerState, appEntryOf } from './app-server-manager-state.ts'
import { drainAndStopAppServer } from './drain-app-server.ts'
import { adoptAppServer } from './start-app-server.ts'

/**
 * New requests go to `instance` from now on; the old instance finishes the requests it has and
 * is stopped. `undefined` (a deploy without a server) just stops the old one.
 */
export async function switchDeploy(
  state: AppServerManagerState,
  appId: string,
  instance: AppServerInstance | undefined,
) {
  const entry = appEntryOf(state, appId)
  entry.generation += 1
  entry.cancelRestart?.()
  const previous = entry.current
  entry.current = undefined
  entry.lastUsedAt = state.now()
  if (instance) adoptAppServer(state, entry, instance)
  if (previous) await drainAndStopAppServer(state, previous)
}
