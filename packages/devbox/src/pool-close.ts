import type { PoolState } from './pool-state.ts'

/** Stops refilling, ends warm-ups under way and waits for provisions; ready boxes stay recorded for the next start. */
export async function closePool(state: PoolState) {
  state.closed = true
  state.closing.abort()
  clearInterval(state.sharedTimer)
  state.sharedTimer = undefined
  for (const pack of state.packs.values()) {
    if (pack.retryTimer) clearTimeout(pack.retryTimer)
    pack.retryTimer = undefined
    if (pack.refillTimer) clearTimeout(pack.refillTimer)
    pack.refillTimer = undefined
  }
  await Promise.all([...state.inFlight])
}
