import { useMutation, useQueryClient } from '@tanstack/react-query'
import { deleteApplication } from './application-api.ts'
import { applicationsQueryKey } from './application-queries.ts'

/** Deletes an application; settles once the refreshed list no longer has it. */
export function useDeleteApplication() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
  })
}
