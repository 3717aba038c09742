import type { BlocksState, StagedMessage } from '@sprout/protocol/stream/blocks-state.ts'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useChatStream } from '../../hooks/use-chat-stream.ts'
import { ApiError } from '../../lib/api-error.ts'
import type { StreamConnectionStatus } from '../../lib/stream-connection.ts'
import { openEventSourceStream } from '../../lib/stream-sources.ts'
import { fetchStreamToken } from '../../lib/stream-token.ts'
import {
  cancelStagedMessage,
  continueRun,
  interruptRun,
  listenUrl,
  sendMessage,
  stageMessage,
} from './chat-api.ts'
import { appendRestored } from './restore-draft.ts'

/** undefined: not chosen yet (the workspace picks the newest); null: a new conversation. */
export type ConversationSelection = string | null | undefined

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
  /** A request that failed, e.g. a message that could not be sent (it is back in the input). */
  notice: string | null
  /** Why the input holds text the user already sent (a queued message the run did not take). */
  draftNote: string | null
  /**
   * Sends, or queues the message while the agent runs. `fallbackModel` is tried when the server
   * refuses `model` (400), e.g. a fixed model this installation has no key for.
   */
  send: (text: string, model: string, fallbackModel?: string) => void
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

/** Why a queued message is back in the input (docs/product/builder.md). */
export const NOT_SENT_NOTE = 'Not sent — the agent finished first. Press Enter to send it.'

/**
 * One builder chat (docs/product/builder.md "Agent run", "Stream connection"): the listen stream
 * of the selected conversation, and the actions that send, stage, interrupt and retry.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the chat's actions share its selection, queue and hand-back state
export function useBuilderChat({ applicationId, onMessageSent }: Options): BuilderChat {
  const [conversationId, setConversationId] = useState<ConversationSelection>(undefined)
  const chat = useChatStream(
    conversationId
      ? async (lastSeq, handlers) => {
          const token = await fetchStreamToken()
          const url = listenUrl(applicationId, conversationId, token, lastSeq)
          return openEventSourceStream(url, handlers)
        }
      : null,
    [applicationId, conversationId],
  )
  const { store, state, notice, setNotice, fail } = chat
  const [draft, setDraft] = useState('')
  // Said next to the input when a queued message comes back because the run ended first.
  const [draftNote, setDraftNote] = useState<string | null>(null)
  const [withdrawn, setWithdrawn] = useState<ReadonlySet<string>>(() => new Set())
  const selectedRef = useRef<ConversationSelection>(undefined)
  selectedRef.current = conversationId
  // Ids of messages this tab queued, and of those already handed back to the input.
  const ownStaged = useRef(new Set<string>())
  const handedBack = useRef(new Set<string>())

  const restoreToInput = useCallback((text: string) => {
    setDraft((current) => appendRestored(current, text))
  }, [])

  const handBack = useCallback(
    (message: StagedMessage) => {
      if (handedBack.current.has(message.id)) return
      handedBack.current.add(message.id)
      setWithdrawn((current) => new Set(current).add(message.id))
      restoreToInput(message.text)
    },
    [restoreToInput],
  )

  // The run ended with our queued messages unsent: they go back to the input
  // (docs/product/builder.md).
  useEffect(() => {
    if (state.failedMessages.length === 0) return
    for (const message of state.failedMessages) {
      if (!ownStaged.current.has(message.id) || handedBack.current.has(message.id)) continue
      handBack(message)
      setDraftNote(NOT_SENT_NOTE)
    }
    store.dispatch({ type: 'local-clear-failed' })
  }, [state.failedMessages, store, handBack])

  const select = useCallback(
    (next: string | null) => {
      if (next === selectedRef.current) return
      store.reset()
      setWithdrawn(new Set())
      setNotice(null)
      setDraftNote(null)
      setConversationId(next)
    },
    [store, setNotice],
  )

  /** Drops what this tab showed ahead of the server and loads the conversation again. */
  const resync = () => {
    store.reset()
    chat.reconnectNow()
  }

  const stage = async (text: string, targetId: string) => {
    const id = crypto.randomUUID()
    ownStaged.current.add(id)
    store.dispatch({ type: 'local-stage', id, text })
    setDraft('')
    try {
      const answer = await stageMessage(applicationId, {
        message: text,
        conversation_id: targetId,
        client_id: id,
      })
      if (answer.status === 'unsent') {
        handBack({ id, text })
        setDraftNote(NOT_SENT_NOTE)
      } else setWithdrawn((current) => new Set(current).add(id))
    } catch {
      handBack({ id, text })
    }
  }

  const send = (text: string, model: string, fallbackModel?: string) => {
    const targetId = conversationId ?? null
    setNotice(null)
    setDraftNote(null)
    if (targetId && state.isRunning) {
      void stage(text, targetId)
      return
    }
    const clientId = crypto.randomUUID()
    store.dispatch({ type: 'local-user-message', text, clientId })
    setDraft('')
    const post = (chosenModel: string) =>
      sendMessage(applicationId, {
        message: text,
        model: chosenModel,
        client_id: clientId,
        ...(targetId ? { conversation_id: targetId } : {}),
      })
    void (async () => {
      try {
        const answer = await post(model).catch((error: unknown) => {
          const refused = error instanceof ApiError && error.status === 400
          if (refused && fallbackModel && fallbackModel !== model) return post(fallbackModel)
          throw error
        })
        const returnedId = answer.conversation_id
        if (returnedId && returnedId !== targetId && (selectedRef.current ?? null) === targetId) {
          // A new conversation keeps the message already shown; its echo is then suppressed.
          if (targetId === null) setConversationId(returnedId)
          else select(returnedId)
        }
        onMessageSent?.()
      } catch (error) {
        if ((selectedRef.current ?? null) !== targetId) return
        resync()
        if (error instanceof ApiError && error.status === 409 && targetId) {
          void stage(text, targetId)
          return
        }
        restoreToInput(text)
        fail(error)
      }
    })()
  }

  const interrupt = () => {
    if (!conversationId) return
    chat.interrupt(() => interruptRun(applicationId, conversationId))
  }

  const stagedMessages = useMemo(
    () => state.stagedMessages.filter((message) => !withdrawn.has(message.id)),
    [state.stagedMessages, withdrawn],
  )

  const pressEscape = () => {
    if (stagedMessages.length > 0) {
      for (const message of stagedMessages) handedBack.current.add(message.id)
      restoreToInput(stagedMessages.map((message) => message.text).join('\n\n'))
      store.dispatch({ type: 'local-clear-staged' })
      if (conversationId) {
        for (const message of stagedMessages) {
          cancelStagedMessage(applicationId, conversationId, message.id).catch(() => {})
        }
      }
      return
    }
    interrupt()
  }

  const retry = () => {
    if (!conversationId) return
    setNotice(null)
    continueRun(applicationId, conversationId).catch(fail)
  }

  return {
    state,
    stagedMessages,
    conversationId,
    connectionStatus: chat.status,
    select,
    draft,
    setDraft,
    notice,
    draftNote,
    send,
    pressEscape,
    interrupt,
    retry,
  }
}
