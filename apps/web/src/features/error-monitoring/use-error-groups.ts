import type { ErrorGroupStatus } from '@sprout/protocol/api/error-monitoring.ts'
import { ERROR_LIST_PAGE_SIZE, ERROR_LIST_POLL_INTERVAL_MS } from '@sprout/protocol/constants.ts'
import { useInfiniteQuery } from '@tanstack/react-query'
import { errorGroupsQueryKey, listErrorGroups } from './error-monitoring-api.ts'

/** The Errors page's list: 50 groups a page, newest first, polled every 30 s. */
export function useErrorGroups(status: ErrorGroupStatus, applicationId: string | undefined) {
  return useInfiniteQuery({
    queryKey: [...errorGroupsQueryKey, 'organization', status, applicationId ?? 'all'],
    queryFn: ({ pageParam }) =>
      listErrorGroups({
        status,
        limit: ERROR_LIST_PAGE_SIZE,
        cursor: pageParam,
        applicationId,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    refetchInterval: ERROR_LIST_POLL_INTERVAL_MS,
  })
}
