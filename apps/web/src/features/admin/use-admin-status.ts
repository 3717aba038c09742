import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'

/** Admin is the `isAdmin` field of GET /api/admin/status (docs/product/admin.md). */
export function useAdminStatus() {
  return useQuery({
    queryKey: ['admin-status'],
    queryFn: () => apiRequest<{ isAdmin: boolean }>('/api/admin/status'),
    staleTime: 5 * 60_000,
  })
}
