import type { ChatStream } from '../../hooks/use-chat-stream.ts'
import type { ImageAttachments } from '../../hooks/use-image-attachments.ts'
import type { DraftSelections } from './selections/use-draft-selections.ts'
import type { StagedQueue } from './use-staged-queue.ts'

/** undefined: not chosen yet (the workspace picks the newest); null: a new conversation. */
export type ConversationSelection = string | null | undefined

/** What the builder chat's actions share: one render's selection, stream, queue and input. */
export type BuilderChatContext = {
  applicationId: string
  conversationId: ConversationSelection
  /** The selection now, for answers that arrive after the user may have moved on. */
  selectedRef: { readonly current: ConversationSelection }
  chat: ChatStream
  queue: StagedQueue
  attachments: ImageAttachments
  selections: DraftSelections
  setDraft: (draft: string) => void
  setDraftNote: (note: string | null) => void
  /** Adopts a new conversation's id without clearing the view (unlike `select`). */
  setConversationId: (conversationId: string) => void
  select: (conversationId: string | null) => void
  onMessageSent: (() => void) | undefined
}
