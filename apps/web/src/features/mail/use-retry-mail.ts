import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'
import { mailOverviewQueryKey } from './use-mail-overview.ts'

/** POST /api/admin/mail/{id}/retry: the message is due again now. */
export function useRetryMail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/admin/mail/${encodeURIComponent(id)}/retry`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mailOverviewQueryKey }),
  })
}
