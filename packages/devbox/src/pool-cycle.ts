import type { PackType } from './devbox-driver.ts'
import { refillPack } from './pool-refill.ts'
import { destroyBoxQuietly, type PoolState, persistPool } from './pool-state.ts'

/** Destroys the ready boxes of a pack type and provisions new ones (e.g. after a template change). */
export async function cyclePack(state: PoolState, packType: PackType) {
  const pack = state.packs.get(packType)
  if (!pack) throw new Error(`The pool has no pack type ${JSON.stringify(packType)}`)
  pack.generation += 1
  pack.paused = false
  pack.consecutiveFailures = 0
  if (pack.retryTimer) clearTimeout(pack.retryTimer)
  pack.retryTimer = undefined
  const old = pack.ready.splice(0)
  for (const box of old) state.records.delete(box.id)
  await persistPool(state)
  refillPack(state, packType)
  await Promise.all(old.map((box) => destroyBoxQuietly(state, box.id)))
}
