import type { EventStoreState } from './event-queue.ts'

const idleQueueMs = 5_000

/** Queues outlive their last write briefly, so that a stream's pace is known between deltas. */
export function startEventQueueSweep({ queues }: EventStoreState) {
  const sweeper = setInterval(() => {
    const idleSince = performance.now() - idleQueueMs
    for (const [conversationId, queue] of queues) {
      if (!queue.writing && queue.pending.length === 0 && queue.lastWriteAt < idleSince) {
        queues.delete(conversationId)
      }
    }
  }, idleQueueMs)
  sweeper.unref()
  return sweeper
}
