import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import type { EncodedEnvelope } from './encoded-envelope.ts'
import { enqueueEvent } from './enqueue-event.ts'
import type { EventStoreState } from './event-queue.ts'
import { flushEvents } from './flush-events.ts'
import { readEvents, readLastSeq, type StoredEvent } from './read-events.ts'
import { startEventQueueSweep } from './sweep-event-queues.ts'

export { DELTA_BATCH_INTERVAL_MS } from './event-queue.ts'
export { EVENTS_CHANNEL } from './insert-event-batch.ts'
export type { StoredEvent }

/** Past this many unwritten chunks a producer waits for the batch being written. */
const backpressureItems = 2_000

export type EventStore = {
  /**
   * Queues a chunk; it is stored with the next batch. Returns a promise only when the producer
   * should wait (the database is falling behind); throws once storing has failed.
   */
  append: (
    conversationId: string,
    runId: string | null,
    chunk: StreamChunk,
  ) => Promise<void> | undefined
  /** Stores a chunk and resolves once it (and everything queued before it) is committed. */
  appendAndWait: (conversationId: string, runId: string | null, chunk: StreamChunk) => Promise<void>
  /** Resolves once every chunk queued so far for the conversation is committed. */
  flush: (conversationId: string) => Promise<void>
  /** Stored events with `after` < seq ≤ `upTo`, in order, at most `limit`. */
  read: (
    conversationId: string,
    after: number,
    upTo: number,
    limit: number,
  ) => Promise<StoredEvent[]>
  close: () => void
  lastSeq: (conversationId: string) => Promise<number>
}

/**
 * Appends chunks to conversation_events. Per conversation, chunks queue up while a batch is being
 * written and go in the next one (group commit), consecutive deltas of one part merged; `onStored`
 * receives each committed batch (the in-process fast path to listeners).
 */
export function createEventStore(options: {
  database: DatabaseHandle
  onStored: (conversationId: string, envelopes: EncodedEnvelope[]) => void
}): EventStore {
  const { database } = options
  const state: EventStoreState = { database, onStored: options.onStored, queues: new Map() }
  const sweeper = startEventQueueSweep(state)
  return {
    append: (conversationId, runId, chunk) => {
      const queue = enqueueEvent(state, conversationId, runId, chunk)
      return queue.pending.length >= backpressureItems
        ? flushEvents(state, conversationId)
        : undefined
    },
    appendAndWait: (conversationId, runId, chunk) =>
      new Promise<void>((resolve, reject) => {
        try {
          enqueueEvent(state, conversationId, runId, chunk, { resolve, reject })
        } catch (error) {
          reject(error)
        }
      }),
    flush: (conversationId) => flushEvents(state, conversationId),
    read: (conversationId, after, upTo, limit) =>
      readEvents(database, conversationId, after, upTo, limit),
    close: () => clearInterval(sweeper),
    lastSeq: (conversationId) => readLastSeq(database, conversationId),
  }
}
