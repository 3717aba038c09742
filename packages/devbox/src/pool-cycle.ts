import type { PackType } from './devbox-driver.ts'
import { refillPack } from './pool-refill.ts'
import { destroyBoxQuietly, type PoolState, persistQuietly } from './pool-state.ts'

/** Destroys the ready boxes of a pack type and provisions new ones (e.g. after a template change). */
export async function cyclePack(state: PoolState, packType: PackType) {
  const pack = state.packs.get(packType)
  if (!pack) throw new Error(`The pool has no pack type ${JSON.stringify(packType)}`)
  pack.generation += 1
  pack.paused = false
  pack.consecutiveFailures = 0
  if (pack.retryTimer) clearTimeout(pack.retryTimer)
  pack.retryTimer = undefined
  const old = state.shared ? await takeEveryReady(state, packType) : pack.ready.splice(0)
  if (state.shared) pack.sharedReady = 0
  else for (const box of old) await persistQuietly(state, (records) => records.remove(box.id))
  refillPack(state, packType)
  await Promise.all(old.map((box) => destroyBoxQuietly(state, box.id)))
}

/** A shared pool's ready boxes of the pack type, every instance's, taken out one claim at a time. */
async function takeEveryReady(state: PoolState, packType: PackType) {
  const taken: { id: string }[] = []
  for (;;) {
    const id = await state.persistence.claim(packType)
    if (id === undefined) return taken
    taken.push({ id })
  }
}
