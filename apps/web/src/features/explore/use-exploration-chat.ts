import type { ChatImage } from '@sprout/protocol/api/images.ts'
import type { BlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import { useState } from 'react'
import { useChatStream } from '../../hooks/use-chat-stream.ts'
import { type ImageAttachments, useImageAttachments } from '../../hooks/use-image-attachments.ts'
import { openFetchEventStream } from '../../lib/stream-sources.ts'
import {
  continueExploration,
  interruptExploration,
  requestExplorationStream,
  sendExplorationMessage,
} from './exploration-api.ts'

export type ExplorationChat = {
  state: BlocksState
  draft: string
  setDraft: (draft: string) => void
  /** The draft's images: sent with its text, handed back with it when the send fails. */
  attachments: ImageAttachments
  notice: string | null
  /** The exploration does not exist (or not in this organization): the stream stopped trying. */
  notFound: boolean
  /** False while the agent answers: an exploration has no queue, so the text stays put. */
  send: (text: string, model: string, images?: readonly ChatImage[]) => boolean
  interrupt: () => void
  retry: () => void
}

/** The exploration chat: the same store and transport as the builder, over a POST stream. */
export function useExplorationChat(explorationId: string): ExplorationChat {
  const chat = useChatStream(
    (lastSeq, handlers) =>
      openFetchEventStream(
        (signal) => requestExplorationStream(explorationId, lastSeq, signal),
        handlers,
      ),
    [explorationId],
    { resetOnChange: true },
  )
  const { store, state, notice, setNotice, fail } = chat
  const [draft, setDraft] = useState('')
  const attachments = useImageAttachments()

  const send = (text: string, model: string, images: readonly ChatImage[] = []) => {
    if (state.isRunning) return false
    setNotice(null)
    const clientId = crypto.randomUUID()
    const withImages = images.length > 0 ? { images } : {}
    store.dispatch({ type: 'local-user-message', text, clientId, ...withImages })
    setDraft('')
    if (images.length > 0) attachments.clear()
    const imageIds = images.length > 0 ? { images: images.map((image) => image.id) } : {}
    sendExplorationMessage(explorationId, {
      message: text,
      model,
      client_id: clientId,
      ...imageIds,
    }).then(
      // A stream that ended (or waits to retry) is opened at once for the answer.
      chat.expectRun,
      (error: unknown) => {
        store.reset()
        chat.reconnectNow()
        setDraft((current) => (current.trim() === '' ? text : `${text}\n\n${current}`))
        attachments.restore(images)
        fail(error)
      },
    )
    return true
  }

  const interrupt = () => chat.interrupt(() => interruptExploration(explorationId))

  const retry = () => {
    setNotice(null)
    continueExploration(explorationId).then(chat.expectRun, fail)
  }

  const notFound = chat.status === 'gone'
  return { state, draft, setDraft, attachments, notice, notFound, send, interrupt, retry }
}
