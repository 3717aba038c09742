import type { PoolState } from './pool-state.ts'

/** Stops refilling and waits for provisions under way; ready boxes stay recorded for the next start. */
export async function closePool(state: PoolState) {
  state.closed = true
  for (const pack of state.packs.values()) {
    if (pack.retryTimer) clearTimeout(pack.retryTimer)
    pack.retryTimer = undefined
    if (pack.refillTimer) clearTimeout(pack.refillTimer)
    pack.refillTimer = undefined
  }
  await Promise.all([...state.inFlight])
  await state.saving
}
