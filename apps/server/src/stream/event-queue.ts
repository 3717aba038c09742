import type { DatabaseHandle } from '@sprout/db/database.ts'
import { isKnownStreamChunk, type StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import type { EncodedEnvelope } from './encoded-envelope.ts'

export type Waiter = { resolve: () => void; reject: (error: unknown) => void }
export type QueuedChunk = {
  runId: string | null
  chunk: StreamChunk
  waiters: Waiter[] | undefined
}

/** The chunks of one conversation waiting for their batch (docs/architecture/stream-protocol.md). */
export type EventQueue = {
  pending: QueuedChunk[]
  writing: boolean
  /** Waiters of the batch being written (flush() while nothing is pending). */
  inflight: Waiter[]
  failure: unknown
  /** When the last batch was written, and whether it held only deltas (a stream is under way). */
  lastWriteAt: number
  lastBatchWasDeltas: boolean
  /** Ends the wait of a batch of quiet chunks (something the chat shows has arrived). */
  wake: (() => void) | undefined
}

/** What the event store's verbs share (event-store.ts builds it). */
export type EventStoreState = {
  database: DatabaseHandle
  onStored: (conversationId: string, envelopes: EncodedEnvelope[]) => void
  queues: Map<string, EventQueue>
}

/**
 * While text streams, deltas are written at most this often (merged in between), which keeps
 * a fast stream from costing one insert per token. The first delta after anything else goes at
 * once, so the first token is never held back.
 */
export const DELTA_BATCH_INTERVAL_MS = 15

/**
 * Chunks that show nothing by themselves (a step or a part begins; chunk types the chat
 * ignores). They wait up to DELTA_BATCH_INTERVAL_MS for what follows, so that a step's opening
 * chunks and its first token go in one insert instead of the token queueing behind them.
 */
const quietChunkTypes: ReadonlySet<string> = new Set([
  'start',
  'start-step',
  'text-start',
  'reasoning-start',
])

export function isQuietChunk(chunk: StreamChunk) {
  return quietChunkTypes.has(chunk.type) || !isKnownStreamChunk(chunk)
}

export function addWaiter(item: QueuedChunk, waiter: Waiter) {
  if (item.waiters) item.waiters.push(waiter)
  else item.waiters = [waiter]
}

export function eventQueueOf(state: EventStoreState, conversationId: string): EventQueue {
  let queue = state.queues.get(conversationId)
  if (!queue) {
    queue = {
      pending: [],
      writing: false,
      inflight: [],
      failure: undefined,
      lastWriteAt: 0,
      lastBatchWasDeltas: false,
      wake: undefined,
    }
    state.queues.set(conversationId, queue)
  }
  return queue
}
