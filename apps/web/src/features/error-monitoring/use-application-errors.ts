import {
  COMPACT_ERROR_LIST_FETCH_LIMIT,
  ERROR_LIST_POLL_INTERVAL_MS,
} from '@sprout/protocol/constants.ts'
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import {
  applicationErrorStats,
  errorGroupsQueryKey,
  listApplicationErrorGroups,
} from './error-monitoring-api.ts'

export const applicationErrorsQueryKey = (applicationId: string) =>
  [...errorGroupsQueryKey, 'application', applicationId] as const

/** After the preview says an error was reported, the list is read this often until it shows. */
export const ARRIVING_POLL_MS = 1000
/** …for at most this long. */
export const ARRIVING_WAIT_MS = 10_000

/**
 * The builder's list (docs/product/error-monitoring.md "Builder error list"): the application's
 * active groups, newest first, 5 a page ('Show more' reads the next), and their true count;
 * polled every 30 s, and every second for a while once the preview reports an error (`arrive`).
 */
export function useApplicationErrors(applicationId: string) {
  const queryClient = useQueryClient()
  const [arrivingSince, setArrivingSince] = useState<number | null>(null)
  const arriving = arrivingSince !== null && Date.now() - arrivingSince < ARRIVING_WAIT_MS
  const interval = arriving ? ARRIVING_POLL_MS : ERROR_LIST_POLL_INTERVAL_MS
  const list = useInfiniteQuery({
    queryKey: [...applicationErrorsQueryKey(applicationId), 'list'],
    queryFn: ({ pageParam }) =>
      listApplicationErrorGroups(
        applicationId,
        'active',
        COMPACT_ERROR_LIST_FETCH_LIMIT,
        pageParam,
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    refetchInterval: interval,
  })
  const stats = useQuery({
    queryKey: [...applicationErrorsQueryKey(applicationId), 'stats'],
    queryFn: () => applicationErrorStats(applicationId),
    refetchInterval: interval,
  })
  const groups = list.data?.pages.flatMap((page) => page.groups) ?? []
  const newest = groups[0] ? Date.parse(groups[0].last_seen_at) : 0
  // The reported error is listed (seen after the report, give or take the clocks): it arrived.
  useEffect(() => {
    if (arrivingSince !== null && newest >= arrivingSince - 5000) setArrivingSince(null)
  }, [arrivingSince, newest])
  useEffect(() => {
    if (arrivingSince === null) return
    const timer = setTimeout(() => setArrivingSince(null), ARRIVING_WAIT_MS)
    return () => clearTimeout(timer)
  }, [arrivingSince])
  const arrive = useCallback(() => {
    setArrivingSince(Date.now())
    void queryClient.invalidateQueries({ queryKey: applicationErrorsQueryKey(applicationId) })
  }, [queryClient, applicationId])
  return {
    list,
    groups,
    activeCount: Math.max(stats.data?.active ?? 0, groups.length),
    arriving,
    arrive,
  }
}
