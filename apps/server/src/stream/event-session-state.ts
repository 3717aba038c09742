import type { createReplayCompactor } from './compact-replay.ts'
import type { EncodedEnvelope, LiveBatch } from './encoded-envelope.ts'
import type { EventHub } from './event-hub.ts'
import type { EventStore } from './event-store.ts'

/**
 * Live envelopes held for a listener that reads slower than they come. Past this the backlog is
 * dropped and the listener reads it back from the table, so a slow client costs no memory.
 */
export const MAX_QUEUED_ENVELOPES = 1_000

/**
 * Where a listener's live batches may be written at once, from the hub's fan-out, while the
 * listener has nothing else to send: no promise, no wake-up and no copy per listener and event.
 */
export type LiveSink = {
  /** False while the socket holds more than it should (wait for the pull loop's drain). */
  writable: () => boolean
  write: (batch: LiveBatch) => void
}

/** One listener's position in its conversation's events, shared by its hub side and its reader. */
export type EventSessionState = {
  hub: EventHub
  store: EventStore
  conversationId: string
  sink: LiveSink | undefined
  queue: EncodedEnvelope[]
  overflowed: boolean
  heartbeatDue: boolean
  closed: boolean
  /** The reader waits with everything up to `lastSent` sent: a live batch may bypass it. */
  parked: boolean
  wake: (() => void) | undefined
  lastSent: number
  /** Stored events up to this seq are read from the table, not taken from the queue. */
  replayUpTo: number
  /** Set while a whole history is replayed (no `after`): it is sent compacted. */
  compactor: ReturnType<typeof createReplayCompactor> | undefined
}

/** Wakes the reader. */
export function signal(state: EventSessionState) {
  state.parked = false
  const resume = state.wake
  state.wake = undefined
  resume?.()
}

export function enqueue(state: EventSessionState, envelope: EncodedEnvelope) {
  if (state.queue.length >= MAX_QUEUED_ENVELOPES) {
    state.queue = []
    state.overflowed = true
  } else {
    state.queue.push(envelope)
  }
}
