import type { ChatImage } from '@sprout/protocol/api/images.ts'
import type { PreviewSelection } from '@sprout/protocol/api/preview-selections.ts'
import type { BlocksState, StagedMessage } from '@sprout/protocol/stream/blocks-state.ts'
import { useCallback, useRef, useState } from 'react'
import { useChatStream } from '../../hooks/use-chat-stream.ts'
import { type ImageAttachments, useImageAttachments } from '../../hooks/use-image-attachments.ts'
import type { OpenStreamSource, StreamConnectionStatus } from '../../lib/stream-connection.ts'
import { openEventSourceStream } from '../../lib/stream-sources.ts'
import { fetchStreamToken } from '../../lib/stream-token.ts'
import type { BuilderChatContext, ConversationSelection } from './builder-chat-context.ts'
import { interruptBuilderRun, pressBuilderEscape, retryBuilderRun } from './builder-run-controls.ts'
import { listenUrl } from './chat-api.ts'
import { type DraftSelections, useDraftSelections } from './selections/use-draft-selections.ts'
import { sendBuilderMessage } from './send-builder-message.ts'
import { useStagedQueue } from './use-staged-queue.ts'

export type BuilderChat = {
  state: BlocksState
  /** The queued messages still shown (those handed back to the input are left out). */
  stagedMessages: readonly StagedMessage[]
  conversationId: ConversationSelection
  connectionStatus: StreamConnectionStatus
  /** Shows another conversation (null: a new one) from an empty view. */
  select: (conversationId: string | null) => void
  draft: string
  setDraft: (draft: string) => void
  /** The draft's images: sent with its text, handed back with it when the send fails. */
  attachments: ImageAttachments
  /** Elements pointed at in the preview, sent with the text (docs/product/builder.md "Select mode"). */
  selections: DraftSelections
  /** A request that failed, e.g. a message that could not be sent (it is back in the input). */
  notice: string | null
  /** Why the input holds text the user already sent (a queued message the run did not take). */
  draftNote: string | null
  /** Sends with `model`, or queues the message while the agent runs (text only). */
  send: (
    text: string,
    model: string,
    images?: readonly ChatImage[],
    selections?: readonly PreviewSelection[],
  ) => void
  /** Escape: takes queued messages back into the input, else interrupts the run. */
  pressEscape: () => void
  interrupt: () => void
  retry: () => void
}

type Options = {
  applicationId: string
  /** After a message started a run or created a conversation (refresh the list). */
  onMessageSent?: () => void
}

function listenSource(applicationId: string, conversationId: string): OpenStreamSource {
  return async (lastSeq, handlers) => {
    const token = await fetchStreamToken()
    const url = listenUrl(applicationId, conversationId, token, lastSeq)
    return openEventSourceStream(url, handlers)
  }
}

/**
 * One builder chat (docs/product/builder.md "Agent run", "Stream connection"): the listen stream
 * of the selected conversation, and the actions that send, stage, interrupt and retry.
 */
export function useBuilderChat({ applicationId, onMessageSent }: Options): BuilderChat {
  const [conversationId, setConversationId] = useState<ConversationSelection>(undefined)
  const chat = useChatStream(conversationId ? listenSource(applicationId, conversationId) : null, [
    applicationId,
    conversationId,
  ])
  const { store, setNotice } = chat
  const [draft, setDraft] = useState('')
  const attachments = useImageAttachments()
  const selections = useDraftSelections()
  // Said next to the input when a queued message comes back because the run ended first.
  const [draftNote, setDraftNote] = useState<string | null>(null)
  const queue = useStagedQueue({ state: chat.state, store, setDraft, setDraftNote })
  const { clearWithdrawn } = queue
  const selectedRef = useRef<ConversationSelection>(undefined)
  selectedRef.current = conversationId

  const select = useCallback(
    (next: string | null) => {
      if (next === selectedRef.current) return
      store.reset()
      clearWithdrawn()
      setNotice(null)
      setDraftNote(null)
      setConversationId(next)
    },
    [store, setNotice, clearWithdrawn],
  )

  const context: BuilderChatContext = {
    applicationId,
    conversationId,
    selectedRef,
    chat,
    queue,
    attachments,
    selections,
    setDraft,
    setDraftNote,
    setConversationId,
    select,
    onMessageSent,
  }
  return {
    state: chat.state,
    stagedMessages: queue.stagedMessages,
    conversationId,
    connectionStatus: chat.status,
    select,
    draft,
    setDraft,
    attachments,
    selections,
    notice: chat.notice,
    draftNote,
    send: (text, model, images = [], pointedAt = []) =>
      sendBuilderMessage(context, text, model, images, pointedAt),
    pressEscape: () => pressBuilderEscape(context),
    interrupt: () => interruptBuilderRun(context),
    retry: () => retryBuilderRun(context),
  }
}
