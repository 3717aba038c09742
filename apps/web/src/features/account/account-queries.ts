import type {
  AccountDeletion,
  AccountSession,
  AccountSummary,
} from '@sprout/protocol/api/account.ts'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'

// The account is the user's, not an organization's: no Organization-ID header.
const accountRequest = <T>(path: string) => apiRequest<T>(path, { organizationId: null })

export const accountQueryKey = ['account'] as const

export const accountSummaryQueryOptions = queryOptions({
  queryKey: [...accountQueryKey, 'summary'],
  queryFn: () => accountRequest<AccountSummary>('/api/account'),
})

export const accountSessionsQueryOptions = queryOptions({
  queryKey: [...accountQueryKey, 'sessions'],
  queryFn: () => accountRequest<AccountSession[]>('/api/account/sessions'),
})

export const accountDeletionQueryOptions = queryOptions({
  queryKey: [...accountQueryKey, 'deletion'],
  queryFn: () => accountRequest<AccountDeletion>('/api/account/deletion'),
  staleTime: 0,
})
