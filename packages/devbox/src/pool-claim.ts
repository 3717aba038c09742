import type { Devbox, PackType } from './devbox-driver.ts'
import { refillPack } from './pool-refill.ts'
import { type PoolState, persistPool } from './pool-state.ts'

/** A ready box, taken out of the pool, or undefined when none is ready (provision one cold). */
export async function claimFromPool(
  state: PoolState,
  packType: PackType,
): Promise<Devbox | undefined> {
  const pack = state.packs.get(packType)
  const box = pack?.ready.shift()
  if (!box) return undefined
  // Forgotten before it is handed out: a crash now leaks a folder instead of giving it twice.
  state.records.delete(box.id)
  if (state.refillDelayMs > 0 && pack) pack.refillAfter = Date.now() + state.refillDelayMs
  await persistPool(state)
  refillPack(state, packType)
  return box
}
