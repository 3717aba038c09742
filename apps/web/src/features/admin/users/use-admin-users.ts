import type { AdminUserSort } from '@sprout/protocol/api/admin-users.ts'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { fetchUsers } from './users-api.ts'

export const adminUsersQueryKey = ['admin', 'users'] as const

/** One page of the Users tab; the previous page stays on screen while the next one loads. */
export function useAdminUsers(input: { query: string; page: number; sort: AdminUserSort }) {
  return useQuery({
    queryKey: [...adminUsersQueryKey, input],
    queryFn: () => fetchUsers(input),
    placeholderData: keepPreviousData,
  })
}
