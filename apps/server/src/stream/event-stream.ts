import { createReplayCompactor } from './compact-replay.ts'
import type { EventHub } from './event-hub.ts'
import { sessionListener } from './event-session-listener.ts'
import { nextBytes } from './event-session-next.ts'
import { type EventSessionState, type LiveSink, signal } from './event-session-state.ts'
import type { EventStore } from './event-store.ts'

export const sseHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
}

export type EventStreamOptions = {
  hub: EventHub
  store: EventStore
  conversationId: string
  after: number | undefined
  /** Called once when the listener goes away or the stream ends (by `openEventStream`, `sseResponse`). */
  onClose?: () => void
}

/** One listener's SSE bytes, taken as the client's socket accepts them. */
export type EventStreamSession = {
  /** The next bytes to send, or undefined once the stream has ended. */
  next: () => Promise<Uint8Array | undefined>
  /** The client went away: stop listening (idempotent). */
  close: () => void
}

/**
 * The SSE body of one listener: the stored events after `after` (with no `after`, the whole
 * history, compacted), then live ones. Pull-based: nothing is read or queued beyond what the
 * client's socket takes, except the bounded live backlog.
 */
export async function openEventStream(
  options: EventStreamOptions,
): Promise<ReadableStream<Uint8Array>> {
  const session = await openEventSession(options)
  let onClose = options.onClose
  const ended = () => {
    onClose?.()
    onClose = undefined
  }
  const close = () => {
    session.close()
    ended()
  }
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        try {
          const bytes = await session.next()
          if (bytes) controller.enqueue(bytes)
          else {
            ended()
            controller.close()
          }
        } catch (error) {
          close()
          controller.error(error)
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  )
}

/**
 * The listener behind `openEventStream`, for writers that take bytes themselves. With `sink`,
 * live batches that come while the writer waits with nothing to send go straight to it.
 */
export async function openEventSession(
  options: EventStreamOptions,
  sink?: LiveSink,
): Promise<EventStreamSession> {
  const { hub, store, conversationId } = options
  const state: EventSessionState = {
    hub,
    store,
    conversationId,
    sink,
    queue: [],
    overflowed: false,
    heartbeatDue: false,
    closed: false,
    parked: false,
    wake: undefined,
    lastSent: options.after ?? 0,
    replayUpTo: 0,
    compactor: undefined,
  }
  const { startAt, unsubscribe } = await hub.subscribe(conversationId, sessionListener(state))
  state.replayUpTo = startAt
  if (options.after === undefined && startAt > 0) state.compactor = createReplayCompactor()
  return {
    next: async () => {
      const bytes = await nextBytes(state)
      if (!bytes) unsubscribe()
      return bytes
    },
    close: () => {
      state.closed = true
      unsubscribe()
      signal(state)
    },
  }
}
