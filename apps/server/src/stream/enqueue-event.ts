import { mergeDeltas } from '@sprout/protocol/stream/merge-deltas.ts'
import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { drainEventQueue } from './drain-event-queue.ts'
import {
  addWaiter,
  type EventQueue,
  type EventStoreState,
  eventQueueOf,
  isQuietChunk,
  type Waiter,
} from './event-queue.ts'

/** Queues a chunk (merged into the last one when both are deltas of one part) and starts a drain. */
export function enqueueEvent(
  state: EventStoreState,
  conversationId: string,
  runId: string | null,
  chunk: StreamChunk,
  waiter?: Waiter,
): EventQueue {
  const queue = eventQueueOf(state, conversationId)
  if (queue.failure !== undefined) {
    // Reported once: the producer (a run) fails, and its closing events are tried afresh.
    const failure = queue.failure
    queue.failure = undefined
    throw failure
  }
  const last = queue.pending.at(-1)
  const merged = last && last.runId === runId ? mergeDeltas(last.chunk, chunk) : undefined
  if (last && merged) {
    last.chunk = merged
    if (waiter) addWaiter(last, waiter)
  } else {
    queue.pending.push({ runId, chunk, waiters: waiter ? [waiter] : undefined })
  }
  if (waiter || !isQuietChunk(chunk)) queue.wake?.()
  if (!queue.writing) {
    queue.writing = true
    // In a microtask: chunks appended in the same tick go in one batch.
    queueMicrotask(() => void drainEventQueue(state, conversationId, queue))
  }
  return queue
}
