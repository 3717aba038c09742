import { type PoolStats, poolStatsSchema } from '@sprout/protocol/api/applications.ts'
import { POOL_STATS_POLL_INTERVAL_MS } from '@sprout/protocol/constants.ts'
import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'

export const poolStatsQueryKey = ['admin', 'pool-stats'] as const

/** GET /api/admin/pool/stats, polled every 10 seconds (docs/product/admin.md). */
export function usePoolStats() {
  return useQuery({
    queryKey: poolStatsQueryKey,
    queryFn: async (): Promise<PoolStats> =>
      poolStatsSchema.parse(await apiRequest('/api/admin/pool/stats')),
    refetchInterval: POOL_STATS_POLL_INTERVAL_MS,
    staleTime: 0,
  })
}
