import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'
import { poolStatsQueryKey } from './use-pool-stats.ts'

/** Deletes a pack type's ready devboxes and has the pool provision new ones. */
export function useCyclePool() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (packType: string) =>
      apiRequest('/api/admin/pool/cycle', { method: 'POST', body: { pack_type: packType } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: poolStatsQueryKey }),
  })
}
