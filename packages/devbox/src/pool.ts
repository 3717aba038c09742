import type { PoolStats } from '@sprout/protocol/api/applications.ts'
import type { Devbox, PackType } from './devbox-driver.ts'
import { claimFromPool } from './pool-claim.ts'
import { closePool } from './pool-close.ts'
import { cyclePack } from './pool-cycle.ts'
import { startPool } from './pool-start.ts'
import { createPoolState, type DevboxPoolOptions } from './pool-state.ts'
import { poolStats } from './pool-stats.ts'

export type { DevboxPoolOptions }

export type DevboxPool = {
  /** Reuses or destroys the boxes recorded by a previous run, then starts filling up to the targets. */
  start: () => Promise<void>
  /** A ready box, taken out of the pool, or undefined when none is ready (provision one cold). */
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
    claim: (packType) => claimFromPool(state, packType),
    stats: () => poolStats(state),
    cycle: (packType) => cyclePack(state, packType),
    close: () => closePool(state),
  }
}
