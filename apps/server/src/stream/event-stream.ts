import { SSE_HEARTBEAT } from '@sprout/protocol/stream/sse-event.ts'
import { createReplayCompactor } from './compact-replay.ts'
import {
  concatBytes,
  type EncodedEnvelope,
  encodeEnvelope,
  type LiveBatch,
} from './encoded-envelope.ts'
import type { EventHub, HubListener } from './event-hub.ts'
import type { EventStore } from './event-store.ts'

const heartbeatBytes = new TextEncoder().encode(SSE_HEARTBEAT)
const replayPage = 500
/**
 * Live envelopes held for a listener that reads slower than they come. Past this the backlog is
 * dropped and the listener reads it back from the table, so a slow client costs no memory.
 */
export const MAX_QUEUED_ENVELOPES = 1_000

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

/**
 * Where a listener's live batches may be written at once, from the hub's fan-out, while the
 * listener has nothing else to send: no promise, no wake-up and no copy per listener and event.
 */
export type LiveSink = {
  /** False while the socket holds more than it should (wait for the pull loop's drain). */
  writable: () => boolean
  write: (batch: LiveBatch) => void
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
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the listener's queue, replay position and live path its methods share
export async function openEventSession(
  options: EventStreamOptions,
  sink?: LiveSink,
): Promise<EventStreamSession> {
  const { hub, store, conversationId } = options
  let queue: EncodedEnvelope[] = []
  let overflowed = false
  let heartbeatDue = false
  let closed = false
  /** `next` waits with everything up to `lastSent` sent: a live batch may bypass it. */
  let parked = false
  let wake: (() => void) | undefined
  const signal = () => {
    parked = false
    const resume = wake
    wake = undefined
    resume?.()
  }

  const enqueue = (envelope: EncodedEnvelope) => {
    if (queue.length >= MAX_QUEUED_ENVELOPES) {
      queue = []
      overflowed = true
    } else {
      queue.push(envelope)
    }
  }

  const listener: HubListener = {
    deliver: (envelope) => {
      if (closed) return
      enqueue(envelope)
      signal()
    },
    deliverBatch: (batch) => {
      if (closed) return
      if (parked && sink && batch.first === lastSent + 1 && sink.writable()) {
        // Nothing is queued, replayed or due while parked: the batch is next, whole.
        lastSent = batch.last
        sink.write(batch)
        return
      }
      for (const envelope of batch.envelopes) enqueue(envelope)
      signal()
    },
    heartbeat: () => {
      heartbeatDue = true
      signal()
    },
    close: () => {
      closed = true
      signal()
    },
    queued: () => queue.length,
  }

  const { startAt, unsubscribe } = await hub.subscribe(conversationId, listener)
  let lastSent = options.after ?? 0
  let replayUpTo = startAt
  let compactor = options.after === undefined && startAt > 0 ? createReplayCompactor() : undefined

  /** The next bytes to send, or undefined once the stream is closed. */
  const next = async (): Promise<Uint8Array | undefined> => {
    for (;;) {
      if (closed) return undefined
      if (overflowed) {
        overflowed = false
        replayUpTo = Math.max(replayUpTo, hub.lastDelivered(conversationId))
      }
      if (lastSent < replayUpTo) {
        const events = await store.read(conversationId, lastSent, replayUpTo, replayPage)
        if (events.length === 0) {
          replayUpTo = lastSent
          continue
        }
        lastSent = events.at(-1)?.seq ?? lastSent
        const out: EncodedEnvelope[] = []
        if (compactor) {
          for (const event of events) compactor.push(event, out)
          if (lastSent >= replayUpTo) {
            compactor.flush(out)
            compactor = undefined
          }
        } else {
          for (const event of events) {
            out.push(encodeEnvelope(event.seq, event.runId, event.chunkText))
          }
        }
        if (out.length > 0) return concatBytes(out.map((envelope) => envelope.bytes))
        continue
      }
      if (queue.length > 0) {
        const taken = queue
        queue = []
        const parts: Uint8Array[] = []
        for (const [index, envelope] of taken.entries()) {
          if (envelope.seq <= lastSent) continue
          if (envelope.seq > lastSent + 1) {
            // A gap (the backlog was dropped): read it from the table, keep the rest queued.
            replayUpTo = envelope.seq - 1
            queue = taken.slice(index).concat(queue)
            break
          }
          parts.push(envelope.bytes)
          lastSent = envelope.seq
        }
        if (parts.length > 0) return concatBytes(parts)
        continue
      }
      if (heartbeatDue) {
        heartbeatDue = false
        return heartbeatBytes
      }
      parked = true
      await new Promise<void>((resolve) => {
        wake = resolve
      })
    }
  }

  return {
    next: async () => {
      const bytes = await next()
      if (!bytes) unsubscribe()
      return bytes
    },
    close: () => {
      closed = true
      unsubscribe()
      signal()
    },
  }
}
