import type { DevServerTarget } from '../devbox-driver.ts'
import { type AppServerManagerState, appEntryOf } from './app-server-manager-state.ts'
import { ensureAppServerStarted } from './start-app-server.ts'

/** A request's hold on the instance that answers it; the instance is not stopped before release. */
export type AppServerLease = { target: DevServerTarget; instanceId: string; release: () => void }

/**
 * The app's running server for one request, started (and waited for) when needed; undefined
 * when its current deploy has no server. Throws AppServerStartError when the server does not
 * come up. Call `release` when the answer is done.
 */
export async function acquireAppServer(
  state: AppServerManagerState,
  appId: string,
): Promise<AppServerLease | undefined> {
  if (state.closed) throw new Error('Production servers are shutting down')
  const { inFlight, now } = state
  const entry = appEntryOf(state, appId)
  entry.lastUsedAt = now()
  if (entry.restartDue) await entry.restartDue
  const instance = entry.current ?? (await ensureAppServerStarted(state, entry))
  if (!instance) return undefined
  inFlight.set(instance, (inFlight.get(instance) ?? 0) + 1)
  let released = false
  return {
    target: instance.target(),
    instanceId: instance.id,
    release: () => {
      if (released) return
      released = true
      entry.lastUsedAt = now()
      const count = (inFlight.get(instance) ?? 1) - 1
      if (count > 0) inFlight.set(instance, count)
      else inFlight.delete(instance)
    },
  }
}
