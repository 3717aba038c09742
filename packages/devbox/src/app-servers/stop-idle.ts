import { type AppServerManagerState, appendAppLog, isAppIdle } from './app-server-manager-state.ts'

/** Stops the servers that had no request for idleMs (the next request starts them again). */
export async function stopIdleAppServers(state: AppServerManagerState) {
  for (const entry of state.entries.values()) {
    if (!isAppIdle(state, entry)) continue
    entry.cancelRestart?.()
    const instance = entry.current
    if (!instance || (state.inFlight.get(instance) ?? 0) > 0) continue
    entry.current = undefined
    entry.generation += 1
    state.logger.info('Stopped an idle production server', { appId: entry.appId })
    appendAppLog(
      entry,
      '\n[sprout] Stopped after no request for a while; the next request starts it\n',
    )
    await instance.stop()
  }
}

/** Checks idleness every idleCheckMs (a quarter of idleMs, at most 30 s); none when idleMs is 0. */
export function startIdleSweep(state: AppServerManagerState) {
  const { idleMs } = state.options
  if (!(idleMs > 0)) return undefined
  const idleCheckMs = state.options.idleCheckMs ?? Math.min(30_000, Math.max(50, idleMs / 4))
  const timer = setInterval(
    () => void stopIdleAppServers(state).catch(() => undefined),
    idleCheckMs,
  )
  timer.unref()
  return timer
}
