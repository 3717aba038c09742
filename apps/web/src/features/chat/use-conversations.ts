import { useQuery } from '@tanstack/react-query'
import { listConversations } from './chat-api.ts'

export const conversationsQueryKey = (applicationId: string) =>
  ['applications', applicationId, 'conversations'] as const

/** The application's builder conversations, newest first. */
export function useConversations(applicationId: string) {
  return useQuery({
    queryKey: conversationsQueryKey(applicationId),
    queryFn: () => listConversations(applicationId),
  })
}
