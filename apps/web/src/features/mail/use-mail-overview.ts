import {
  MAIL_OVERVIEW_POLL_MS,
  type MailOverview,
  mailOverviewSchema,
} from '@sprout/protocol/api/mail.ts'
import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'

export const mailOverviewQueryKey = ['admin', 'mail'] as const

/** GET /api/admin/mail, refreshed every 10 seconds (docs/product/mail.md "What the admin sees"). */
export function useMailOverview() {
  return useQuery({
    queryKey: mailOverviewQueryKey,
    queryFn: async (): Promise<MailOverview> =>
      mailOverviewSchema.parse(await apiRequest('/api/admin/mail')),
    refetchInterval: MAIL_OVERVIEW_POLL_MS,
    staleTime: 0,
  })
}
