import type { AppEntry, AppServerManagerState } from './app-server-manager-state.ts'

/** Stops the app's server and any start under way; a restart waiting for its delay is cancelled. */
export async function stopAppEntry(entry: AppEntry) {
  entry.generation += 1
  entry.cancelRestart?.()
  const instance = entry.current
  entry.current = undefined
  await Promise.all([
    instance?.stop(),
    entry.starting?.then((started) => started?.stop()).catch(() => undefined),
  ])
}

/** Stops the app's server (the application is deleted); the next request would start it. */
export async function stopAppServer(state: AppServerManagerState, appId: string) {
  const entry = state.entries.get(appId)
  if (!entry) return
  state.entries.delete(appId)
  await stopAppEntry(entry)
}

/** Sprout is shutting down: every server is stopped; they start again on first request. */
export async function closeAppServers(state: AppServerManagerState) {
  state.closed = true
  clearInterval(state.idleTimer)
  await Promise.all([...state.entries.values()].map((entry) => stopAppEntry(entry)))
  state.entries.clear()
}
