import { INTERRUPT_DEBOUNCE_MS } from '@sprout/protocol/constants.ts'
import type { BlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import { useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react'
import { createBlocksStore } from '../../lib/blocks-store.ts'
import {
  createStreamConnection,
  type StreamConnection,
  type StreamConnectionStatus,
} from '../../lib/stream-connection.ts'
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
  const [store] = useState(() => createBlocksStore())
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState)
  const [draft, setDraft] = useState('')
  const [notice, setNotice] = useState<string | null>(null)
  const [notFound, setNotFound] = useState(false)
  const connectionRef = useRef<StreamConnection | null>(null)
  const lastInterruptAt = useRef(Number.NEGATIVE_INFINITY)
  const statusRef = useRef<StreamConnectionStatus>('closed')

  useLayoutEffect(() => {
    store.reset()
    setNotFound(false)
    const connection = createStreamConnection({
      open: (lastSeq, handlers) =>
        openFetchEventStream(
          (signal) => requestExplorationStream(explorationId, lastSeq, signal),
          handlers,
        ),
      lastSeq: store.lastSeq,
      onEnvelope: store.receive,
      onStatus: (status) => {
        statusRef.current = status
        if (status === 'gone') setNotFound(true)
      },
    })
    connectionRef.current = connection
    return () => {
      connection.close()
      connectionRef.current = null
    }
  }, [explorationId, store])

  const send = (text: string, model: string) => {
    if (state.isRunning) return false
    setNotice(null)
    const clientId = crypto.randomUUID()
    store.dispatch({ type: 'local-user-message', text, clientId })
    setDraft('')
    sendExplorationMessage(explorationId, { message: text, model, client_id: clientId }).then(
      // A stream that ended (or waits to retry) is opened at once for the answer.
      () => {
        if (statusRef.current !== 'open') connectionRef.current?.reconnectNow()
      },
      (error: unknown) => {
        store.reset()
        connectionRef.current?.reconnectNow()
        setDraft((current) => (current.trim() === '' ? text : `${text}\n\n${current}`))
        setNotice(error instanceof Error ? error.message : String(error))
      },
    )
    return true
  }

  const interrupt = () => {
    if (!state.isRunning) return
    const now = performance.now()
    if (now - lastInterruptAt.current < INTERRUPT_DEBOUNCE_MS) return
    lastInterruptAt.current = now
    store.dispatch({ type: 'local-interrupt' })
    interruptExploration(explorationId).catch((error: unknown) => {
      setNotice(error instanceof Error ? error.message : String(error))
    })
  }

  const retry = () => {
    setNotice(null)
    continueExploration(explorationId).then(
      () => {
        if (statusRef.current !== 'open') connectionRef.current?.reconnectNow()
      },
      (error: unknown) => setNotice(error instanceof Error ? error.message : String(error)),
    )
  }

  return { state, draft, setDraft, notice, notFound, send, interrupt, retry }
}
