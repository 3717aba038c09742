import type { ErrorGroupStatus } from '@sprout/protocol/api/error-monitoring.ts'
import { ERROR_DETAIL_OCCURRENCES_SHOWN } from '@sprout/protocol/constants.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  errorGroupsQueryKey,
  listGroupErrors,
  updateErrorGroupStatus,
} from './error-monitoring-api.ts'

/** A group's 10 newest occurrences, and the status change that refreshes every error list. */
export function useErrorDetail(groupId: string | undefined) {
  const queryClient = useQueryClient()
  const occurrences = useQuery({
    queryKey: [...errorGroupsQueryKey, 'occurrences', groupId],
    queryFn: async () =>
      (await listGroupErrors(groupId ?? '')).slice(0, ERROR_DETAIL_OCCURRENCES_SHOWN),
    enabled: groupId !== undefined,
  })
  const setStatus = useMutation({
    mutationFn: (status: ErrorGroupStatus) => updateErrorGroupStatus(groupId ?? '', status),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: errorGroupsQueryKey }),
  })
  return { occurrences, setStatus }
}
