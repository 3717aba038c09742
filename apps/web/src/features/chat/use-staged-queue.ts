import type { BlocksState, StagedMessage } from '@sprout/protocol/stream/blocks-state.ts'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { BlocksStore } from '../../lib/blocks-store.ts'
import { appendRestored } from './restore-draft.ts'

/** Why a queued message is back in the input (docs/product/builder.md). */
export const NOT_SENT_NOTE = 'Not sent — the agent finished first. Press Enter to send it.'

export type StagedQueue = {
  /** The queued messages still shown (those handed back to the input are left out). */
  stagedMessages: readonly StagedMessage[]
  /** Remembers a message this tab queued: if the run ends without it, it comes back. */
  markOwn: (id: string) => void
  /** Puts a queued message's text back into the input, once. */
  handBack: (message: StagedMessage) => void
  /** Hides a queued message the server took or gave back. */
  withdraw: (id: string) => void
  /** Another conversation: nothing is hidden any more. */
  clearWithdrawn: () => void
  /** Appends text to the input, e.g. a message that could not be sent. */
  restoreToInput: (text: string) => void
  /** Escape: every shown queued message goes back into the input. */
  takeBackAll: () => void
}

type StagedQueueOptions = {
  state: BlocksState
  store: BlocksStore
  setDraft: (update: (current: string) => string) => void
  setDraftNote: (note: string | null) => void
}

/** The builder chat's queue of messages staged while the agent runs, and handing them back. */
export function useStagedQueue({
  state,
  store,
  setDraft,
  setDraftNote,
}: StagedQueueOptions): StagedQueue {
  const [withdrawn, setWithdrawn] = useState<ReadonlySet<string>>(() => new Set())
  // Ids of messages this tab queued, and of those already handed back to the input.
  const ownStaged = useRef(new Set<string>())
  const handedBack = useRef(new Set<string>())

  const restoreToInput = useCallback(
    (text: string) => setDraft((current) => appendRestored(current, text)),
    [setDraft],
  )
  const withdraw = useCallback(
    (id: string) => setWithdrawn((current) => new Set(current).add(id)),
    [],
  )
  const clearWithdrawn = useCallback(() => setWithdrawn(new Set()), [])
  const handBack = useCallback(
    (message: StagedMessage) => {
      if (handedBack.current.has(message.id)) return
      handedBack.current.add(message.id)
      withdraw(message.id)
      restoreToInput(message.text)
    },
    [restoreToInput, withdraw],
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
  }, [state.failedMessages, store, handBack, setDraftNote])

  const stagedMessages = useMemo(
    () => state.stagedMessages.filter((message) => !withdrawn.has(message.id)),
    [state.stagedMessages, withdrawn],
  )

  const takeBackAll = () => {
    for (const message of stagedMessages) handedBack.current.add(message.id)
    restoreToInput(stagedMessages.map((message) => message.text).join('\n\n'))
  }
  const markOwn = (id: string) => {
    ownStaged.current.add(id)
  }

  return {
    stagedMessages,
    markOwn,
    handBack,
    withdraw,
    clearWithdrawn,
    restoreToInput,
    takeBackAll,
  }
}
