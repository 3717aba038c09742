import type { PoolStats } from '@sprout/protocol/api/applications.ts'
import type { PoolState } from './pool-state.ts'

/** Ready boxes and targets per pack type, provisions under way and failed so far. */
export function poolStats(state: PoolState): PoolStats {
  const packStats: PoolStats['packs'] = {}
  let provisioning = 0
  for (const [packType, pack] of state.packs) {
    provisioning += pack.provisioning
    packStats[packType] = { ready: pack.ready.length, target: pack.target }
  }
  return { global: { provisioning, failed: state.failed }, packs: packStats }
}
