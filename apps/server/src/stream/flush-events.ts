import { addWaiter, type EventStoreState } from './event-queue.ts'

/** Resolves once every chunk queued so far for the conversation is committed. */
export function flushEvents(state: EventStoreState, conversationId: string): Promise<void> {
  const queue = state.queues.get(conversationId)
  if (!queue || (!queue.writing && queue.pending.length === 0)) return Promise.resolve()
  queue.wake?.()
  return new Promise((resolve, reject) => {
    const last = queue.pending.at(-1)
    if (last) addWaiter(last, { resolve, reject })
    else queue.inflight.push({ resolve, reject })
  })
}
