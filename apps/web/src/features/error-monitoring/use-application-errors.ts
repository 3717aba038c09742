import {
  COMPACT_ERROR_LIST_FETCH_LIMIT,
  ERROR_LIST_POLL_INTERVAL_MS,
} from '@sprout/protocol/constants.ts'
import { useQuery } from '@tanstack/react-query'
import { errorGroupsQueryKey, listApplicationErrorGroups } from './error-monitoring-api.ts'

export const applicationErrorsQueryKey = (applicationId: string) =>
  [...errorGroupsQueryKey, 'application', applicationId] as const

/** The builder's list: the application's 5 newest active groups, polled every 30 s. */
export function useApplicationErrors(applicationId: string) {
  return useQuery({
    queryKey: applicationErrorsQueryKey(applicationId),
    queryFn: () =>
      listApplicationErrorGroups(applicationId, 'active', COMPACT_ERROR_LIST_FETCH_LIMIT),
    refetchInterval: ERROR_LIST_POLL_INTERVAL_MS,
  })
}
