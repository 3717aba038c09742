import type { AuditQuery } from '@sprout/protocol/api/audit.ts'
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import { type AuditSource, fetchAuditPage } from './audit-api.ts'

export const auditQueryKey = ['audit'] as const

/**
 * The events matching `query`, newest first; each 'Load more' asks for the page `before` the
 * last one's `next`. The previous filters' events stay on screen while new ones load.
 */
export function useAuditEvents(source: AuditSource, query: AuditQuery) {
  return useInfiniteQuery({
    queryKey: [...auditQueryKey, source, query],
    queryFn: ({ pageParam, signal }) =>
      fetchAuditPage(source, pageParam ? { ...query, before: pageParam } : query, signal),
    initialPageParam: '',
    getNextPageParam: (page) => page.next ?? undefined,
    placeholderData: keepPreviousData,
  })
}
