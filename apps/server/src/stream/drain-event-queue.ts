import { isDeltaChunk } from '@sprout/protocol/stream/merge-deltas.ts'
import { storableJson } from '@sprout/protocol/text/well-formed.ts'
import { encodeEnvelope } from './encoded-envelope.ts'
import {
  DELTA_BATCH_INTERVAL_MS,
  type EventQueue,
  type EventStoreState,
  isQuietChunk,
} from './event-queue.ts'
import { insertEventBatch } from './insert-event-batch.ts'

const maxBatchItems = 500
const maxBatchCharacters = 2_000_000

const waitForMoreThanQuiet = (queue: EventQueue) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(() => queue.wake?.(), DELTA_BATCH_INTERVAL_MS)
    queue.wake = () => {
      clearTimeout(timer)
      queue.wake = undefined
      resolve()
    }
  })

/** Writes the queue's chunks batch after batch until none is pending (group commit). */
export async function drainEventQueue(
  { database, onStored }: EventStoreState,
  conversationId: string,
  queue: EventQueue,
) {
  while (queue.pending.length > 0) {
    if (queue.pending.every((item) => isQuietChunk(item.chunk))) {
      await waitForMoreThanQuiet(queue)
    }
    const onlyDeltas = queue.pending.every((item) => isDeltaChunk(item.chunk))
    const wait = queue.lastWriteAt + DELTA_BATCH_INTERVAL_MS - performance.now()
    if (onlyDeltas && queue.lastBatchWasDeltas && wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
    queue.lastBatchWasDeltas = queue.pending.every((item) => isDeltaChunk(item.chunk))
    queue.lastWriteAt = performance.now()
    let characters = 0
    let count = 0
    const texts: string[] = []
    for (const item of queue.pending) {
      if (count >= maxBatchItems || characters >= maxBatchCharacters) break
      const text = storableJson(item.chunk)
      texts.push(text)
      characters += text.length
      count++
    }
    const batch = queue.pending.splice(0, count)
    const waiters = [...batch.flatMap((item) => item.waiters ?? [])]
    queue.inflight = waiters
    const runIds = batch.map((item) => item.runId)
    try {
      const last = await insertEventBatch(database, conversationId, texts, runIds)
      const first = last - batch.length + 1
      try {
        onStored(
          conversationId,
          texts.map((text, index) => encodeEnvelope(first + index, runIds[index] ?? null, text)),
        )
      } catch (error) {
        console.error('[events] delivering stored events failed:', error)
      }
      for (const waiter of queue.inflight) waiter.resolve()
    } catch (error) {
      console.error(`[events] storing events of ${conversationId} failed:`, error)
      queue.failure = error
      for (const waiter of queue.inflight) waiter.reject(error)
    }
    queue.inflight = []
  }
  queue.writing = false
}
