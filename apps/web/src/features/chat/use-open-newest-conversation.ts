import { useEffect } from 'react'
import type { ConversationSelection } from './builder-chat-context.ts'
import type { ConversationSummary } from './chat-api.ts'

type OpenNewestConversationOptions = {
  conversationId: ConversationSelection
  /** Newest first; undefined while loading. */
  conversations: ConversationSummary[] | undefined
  isError: boolean
  select: (conversationId: string | null) => void
  setModel: (model: string) => void
}

/** Until the user picks one, the newest conversation is shown (or a new one when there is none). */
export function useOpenNewestConversation({
  conversationId,
  conversations,
  isError,
  select,
  setModel,
}: OpenNewestConversationOptions): void {
  useEffect(() => {
    if (conversationId !== undefined) return
    if (conversations) {
      const newest = conversations[0]
      if (newest?.active_model) setModel(newest.active_model)
      select(newest?.id ?? null)
    } else if (isError) select(null)
  }, [conversationId, conversations, isError, select, setModel])
}
