import { refillAllPacks } from './pool-refill.ts'
import { destroyBoxQuietly, type PoolState, persistPool } from './pool-state.ts'

/** Reuses or destroys the boxes recorded by a previous run, then starts filling up to the targets. */
export async function startPool(state: PoolState) {
  if (state.started) return
  const previous = (await state.persistence?.load()) ?? []
  for (const record of previous) {
    const pack = state.packs.get(record.packType)
    if (record.state !== 'ready' || !pack || pack.ready.length >= pack.target) {
      await destroyBoxQuietly(state, record.id)
      continue
    }
    try {
      pack.ready.push(await state.driver.open(record.id, record.packType))
      state.records.set(record.id, record)
    } catch (error) {
      state.logger.warn('Could not reuse a ready dev box; destroying it', {
        id: record.id,
        error: error instanceof Error ? error.message : String(error),
      })
      await destroyBoxQuietly(state, record.id)
    }
  }
  await persistPool(state)
  state.started = true
  refillAllPacks(state)
}
