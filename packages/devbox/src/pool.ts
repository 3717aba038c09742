import type { PoolStats } from '@sprout/protocol/api/applications.ts'
import type { Devbox, PackType } from './devbox-driver.ts'
import { type ClaimedBox, claimFromPool, openClaimed } from './pool-claim.ts'
import { closePool } from './pool-close.ts'
import { cyclePack } from './pool-cycle.ts'
import { startPool } from './pool-start.ts'
import { createPoolState, type DevboxPoolOptions } from './pool-state.ts'
import { poolStats } from './pool-stats.ts'

export type { ClaimedBox, DevboxPoolOptions }

export type DevboxPool = {
  /** Reuses or destroys the boxes recorded by a previous run, then starts filling up to the targets. */
  start: () => Promise<void>
  /**
   * A ready box, taken out of the pool: open and warm when this server made it, or a shared
   * pool's files for the claimer to open; undefined when none is ready (provision one cold).
   */
  take: (packType: PackType) => Promise<ClaimedBox | undefined>
  /** A ready box taken out of the pool and open (a shared pool's opened now), or undefined. */
  claim: (packType: PackType) => Promise<Devbox | undefined>
  stats: () => PoolStats
  /** Destroys the ready boxes of a pack type and provisions new ones (e.g. after a template change). */
  cycle: (packType: PackType) => Promise<void>
  /** Stops refilling and waits for provisions under way; ready boxes stay recorded for the next start. */
  close: () => Promise<void>
}

/**
 * Keeps `target` boxes per pack type provisioned and ready to be claimed
 * (docs/architecture/devbox.md "Pool").
 */
export function createDevboxPool(options: DevboxPoolOptions): DevboxPool {
  const state = createPoolState(options)
  return {
    start: () => startPool(state),
    take: (packType) => claimFromPool(state, packType),
    claim: async (packType) => openClaimed(state, await claimFromPool(state, packType)),
    stats: () => poolStats(state),
    cycle: (packType) => cyclePack(state, packType),
    close: () => closePool(state),
  }
}
