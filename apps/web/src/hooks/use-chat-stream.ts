import { INTERRUPT_DEBOUNCE_MS } from '@sprout/protocol/constants.ts'
import type { BlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import {
  type DependencyList,
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { type BlocksStore, createBlocksStore } from '../lib/blocks-store.ts'
import { errorMessage } from '../lib/error-message.ts'
import {
  createStreamConnection,
  type OpenStreamSource,
  type StreamConnection,
  type StreamConnectionStatus,
} from '../lib/stream-connection.ts'

export type ChatStream = {
  store: BlocksStore
  state: BlocksState
  status: StreamConnectionStatus
  /** A request that failed, said next to the input. */
  notice: string | null
  setNotice: (notice: string | null) => void
  /** Shows a failed request's error as the notice. */
  fail: (error: unknown) => void
  /** Opens the stream again at once (after the view was reset, or to skip a backoff). */
  reconnectNow: () => void
  /** A request started a run: make sure the stream is open to show it. */
  expectRun: () => void
  /**
   * Escape or the Interrupt button: marks the run as interrupting and sends `request`, at most
   * once per INTERRUPT_DEBOUNCE_MS; nothing while no run is going.
   */
  interrupt: (request: () => Promise<unknown>) => void
}

/**
 * The chat's shared plumbing (builder and exploration): a blocks store fed by one stream, its
 * status, failed-request notices and the interrupt's debounce. `open` null: nothing to listen to
 * yet. `resetOnChange` empties the view when `deps` change.
 */
export function useChatStream(
  open: OpenStreamSource | null,
  deps: DependencyList,
  options: { resetOnChange?: boolean } = {},
): ChatStream {
  const [store] = useState(() => createBlocksStore())
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState)
  const [status, setStatus] = useState<StreamConnectionStatus>('closed')
  const [notice, setNotice] = useState<string | null>(null)
  const connectionRef = useRef<StreamConnection | null>(null)
  const statusRef = useRef<StreamConnectionStatus>('closed')
  const lastInterruptAt = useRef(Number.NEGATIVE_INFINITY)
  const openRef = useRef(open)
  openRef.current = open
  const resetOnChange = options.resetOnChange ?? false

  // A layout effect: the old stream closes in the same task as the switch, so none of its
  // events can reach the store after it was cleared for the next conversation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the stream depends on.
  useLayoutEffect(() => {
    if (resetOnChange) store.reset()
    const current = openRef.current
    if (!current) return
    const connection = createStreamConnection({
      open: current,
      lastSeq: store.lastSeq,
      onEnvelope: store.receive,
      onStatus: (next) => {
        statusRef.current = next
        setStatus(next)
      },
    })
    connectionRef.current = connection
    return () => {
      connection.close()
      connectionRef.current = null
    }
  }, [store, resetOnChange, openRef.current === null, ...deps])

  const fail = useCallback((error: unknown) => setNotice(errorMessage(error)), [])
  const reconnectNow = useCallback(() => connectionRef.current?.reconnectNow(), [])
  const expectRun = useCallback(() => {
    if (statusRef.current !== 'open') connectionRef.current?.reconnectNow()
  }, [])

  const interrupt = (request: () => Promise<unknown>) => {
    if (!state.isRunning) return
    const now = performance.now()
    if (now - lastInterruptAt.current < INTERRUPT_DEBOUNCE_MS) return
    lastInterruptAt.current = now
    store.dispatch({ type: 'local-interrupt' })
    request().catch(fail)
  }

  return { store, state, status, notice, setNotice, fail, reconnectNow, expectRun, interrupt }
}
