import type { BlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import { useState } from 'react'
import { useChatStream } from '../../hooks/use-chat-stream.ts'
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
  notice: string | null
  /** The exploration does not exist (or not in this organization): the stream stopped trying. */
  notFound: boolean
  /** False while the agent answers: an exploration has no queue, so the text stays put. */
  send: (text: string, model: string) => boolean
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

  const send = (text: string, model: string) => {
    if (state.isRunning) return false
    setNotice(null)
    const clientId = crypto.randomUUID()
    store.dispatch({ type: 'local-user-message', text, clientId })
    setDraft('')
    sendExplorationMessage(explorationId, { message: text, model, client_id: clientId }).then(
      // A stream that ended (or waits to retry) is opened at once for the answer.
      chat.expectRun,
      (error: unknown) => {
        store.reset()
        chat.reconnectNow()
        setDraft((current) => (current.trim() === '' ? text : `${text}\n\n${current}`))
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
  return { state, draft, setDraft, notice, notFound, send, interrupt, retry }
}
