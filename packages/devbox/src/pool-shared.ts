import { refillAllPacks } from './pool-refill.ts'
import { destroyBoxQuietly, type PoolState } from './pool-state.ts'

/**
 * A shared pool looks at the records every instance keeps at once, then every `intervalMs`
 * (docs/decisions/034-one-pool-in-a-table.md): each instance for its stats, the leader also to
 * destroy what instances that are gone left half-provisioned and to refill.
 */
export async function startSharedLooks(state: PoolState) {
  const shared = state.shared
  if (!shared) return
  let looking: Promise<void> | undefined
  const look = () => {
    looking ??= lookAtSharedPool(state).finally(() => {
      looking = undefined
    })
    return looking
  }
  state.sharedTimer = setInterval(look, shared.intervalMs)
  state.sharedTimer.unref()
  await look()
}

async function lookAtSharedPool(state: PoolState) {
  const { persistence, shared } = state
  if (state.closed || !shared || !persistence.count) return
  try {
    for (const [packType, pack] of state.packs) {
      const counted = await persistence.count(packType, state.templateOf(packType))
      pack.sharedReady = counted.ready
      pack.sharedProvisioning = counted.provisioning
    }
    if (!shared.mayRefill() || state.closed) return
    const abandoned = (await persistence.takeAbandoned?.(state.templateOf)) ?? []
    for (const id of abandoned) await destroyBoxQuietly(state, id)
    if (abandoned.length > 0) {
      state.logger.info('Destroyed dev boxes left half-provisioned by a stopped instance', {
        boxes: abandoned.length,
      })
      // What they counted for is gone: count again before refilling.
      return await lookAtSharedPool(state)
    }
    refillAllPacks(state)
  } catch (error) {
    state.logger.warn('Could not look at the shared dev box pool', {
      error: error instanceof Error ? error.message : String(error),
    })
  }
}
