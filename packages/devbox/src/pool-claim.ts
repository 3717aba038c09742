import type { Devbox, PackType } from './devbox-driver.ts'
import { refillPack } from './pool-refill.ts'
import { destroyBoxQuietly, type PoolState } from './pool-state.ts'

/**
 * A box taken out of the pool: open and warm (`box`, made by this server), or its files only
 * (a shared pool's, made by any instance), to be opened by the claimer.
 */
export type ClaimedBox = { id: string; packType: PackType; box: Devbox | undefined }

/** A ready box, taken out of the pool, or undefined when none is ready (provision one cold). */
export async function claimFromPool(
  state: PoolState,
  packType: PackType,
): Promise<ClaimedBox | undefined> {
  const pack = state.packs.get(packType)
  if (!pack) return undefined
  // Nothing open here: no statement to run (a shared pool's boxes are every instance's).
  if (!state.shared && pack.ready.length === 0) return undefined
  // One statement takes the record out (`for update skip locked` in the table), before the box
  // is handed out: two claimers never get one box, and a crash now leaks a folder instead.
  const template = state.templateOf(packType)
  const id = await state.persistence.claim(packType, template).catch((error: Error) => {
    state.logger.error('Could not claim a dev box from the pool', { error: error.message })
    return undefined
  })
  if (id === undefined) return undefined
  if (state.shared) {
    pack.sharedReady = Math.max(0, pack.sharedReady - 1)
    return { id, packType, box: undefined }
  }
  const index = pack.ready.findIndex((box) => box.id === id)
  // Taken by a cycle meanwhile, which destroys it.
  if (index < 0) return undefined
  const [box] = pack.ready.splice(index, 1)
  if (state.refillDelayMs > 0) pack.refillAfter = Date.now() + state.refillDelayMs
  refillPack(state, packType)
  return { id, packType, box }
}

/** The claimed box, opened here when it is a shared pool's files; undefined if it does not open. */
export async function openClaimed(state: PoolState, claimed: ClaimedBox | undefined) {
  if (!claimed || claimed.box) return claimed?.box
  try {
    return await state.driver.open(claimed.id, claimed.packType)
  } catch (error) {
    state.logger.warn('A claimed pool box did not open; destroying it', {
      id: claimed.id,
      error: error instanceof Error ? error.message : String(error),
    })
    await destroyBoxQuietly(state, claimed.id)
    return undefined
  }
}
