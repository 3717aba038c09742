import type { HubListener } from './event-hub-channel.ts'
import { type EventSessionState, enqueue, signal } from './event-session-state.ts'

/** The hub's side of a session: live envelopes are queued, or written at once while parked. */
export function sessionListener(state: EventSessionState): HubListener {
  return {
    deliver: (envelope) => {
      if (state.closed) return
      enqueue(state, envelope)
      signal(state)
    },
    deliverBatch: (batch) => {
      if (state.closed) return
      const sink = state.sink
      if (state.parked && sink && batch.first === state.lastSent + 1 && sink.writable()) {
        // Nothing is queued, replayed or due while parked: the batch is next, whole.
        state.lastSent = batch.last
        sink.write(batch)
        return
      }
      for (const envelope of batch.envelopes) enqueue(state, envelope)
      signal(state)
    },
    heartbeat: () => {
      state.heartbeatDue = true
      signal(state)
    },
    close: () => {
      state.closed = true
      signal(state)
    },
    queued: () => state.queue.length,
  }
}
