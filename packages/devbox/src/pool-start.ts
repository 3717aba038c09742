import { refillAllPacks } from './pool-refill.ts'
import { startSharedLooks } from './pool-shared.ts'
import { destroyBoxQuietly, type PoolState, persistQuietly } from './pool-state.ts'

/** Reuses or destroys the boxes recorded by a previous run, then starts filling up to the targets. */
export async function startPool(state: PoolState) {
  if (state.started) return
  const previous = await state.persistence.load()
  for (const record of previous) {
    const pack = state.packs.get(record.packType)
    const current = state.templateOf(record.packType)
    if (current !== undefined && record.template !== current) {
      // Made from another starter (an upgrade): a new app would start from the old one.
      state.logger.info('Destroying a pooled dev box made from an older starter', {
        id: record.id,
        packType: record.packType,
      })
      await persistQuietly(state, (records) => records.remove(record.id))
      await destroyBoxQuietly(state, record.id)
      continue
    }
    // A shared pool's ready box is its files: it stays recorded, for any instance to open.
    if (state.shared && record.state === 'ready' && pack) continue
    if (state.shared || record.state !== 'ready' || !pack || pack.ready.length >= pack.target) {
      await persistQuietly(state, (records) => records.remove(record.id))
      await destroyBoxQuietly(state, record.id)
      continue
    }
    try {
      pack.ready.push(await state.driver.open(record.id, record.packType))
    } catch (error) {
      state.logger.warn('Could not reuse a ready dev box; destroying it', {
        id: record.id,
        error: error instanceof Error ? error.message : String(error),
      })
      await persistQuietly(state, (records) => records.remove(record.id))
      await destroyBoxQuietly(state, record.id)
    }
  }
  state.started = true
  if (state.shared) return startSharedLooks(state)
  refillAllPacks(state)
}
