import type { PoolStats } from '@sprout/protocol/api/applications.ts'
import type { PoolState } from './pool-state.ts'

/**
 * Ready boxes and targets per pack type, provisions under way and failed so far: this server's,
 * or for a shared pool the ready boxes of every instance at its last look.
 */
export function poolStats(state: PoolState): PoolStats {
  const packStats: PoolStats['packs'] = {}
  let provisioning = 0
  for (const [packType, pack] of state.packs) {
    provisioning += pack.provisioning
    const ready = state.shared ? pack.sharedReady : pack.ready.length
    packStats[packType] = { ready, target: pack.target }
  }
  return { global: { provisioning, failed: state.failed }, packs: packStats }
}
