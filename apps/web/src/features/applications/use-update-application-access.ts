import type { UpdateApplicationRequest } from '@sprout/protocol/api/app-visibility.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { updateApplicationAccess } from './application-api.ts'
import { applicationsQueryKey } from './application-queries.ts'

/** Changes who may open the app's deploy; settles once the application is read again. */
export function useUpdateApplicationAccess(applicationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (request: UpdateApplicationRequest) =>
      updateApplicationAccess(applicationId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
  })
}
