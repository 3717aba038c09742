import { CONVERSATIONS_PAGE_SIZE } from '@sprout/protocol/constants.ts'
import { useInfiniteQuery } from '@tanstack/react-query'
import { fetchAdminConversations } from './evaluations-api.ts'

/** Every organization's conversations, newest first, a page of 100 at a time ('Load More'). */
export function useAdminConversations() {
  const query = useInfiniteQuery({
    queryKey: ['admin', 'conversations'],
    queryFn: ({ pageParam }) => fetchAdminConversations(pageParam, CONVERSATIONS_PAGE_SIZE),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  })
  const conversations = query.data?.pages.flatMap((page) => page.conversations) ?? []
  return { ...query, conversations }
}
