import { SSE_HEARTBEAT } from '@sprout/protocol/stream/sse-event.ts'
import { concatBytes, type EncodedEnvelope, encodeEnvelope } from './encoded-envelope.ts'
import type { EventSessionState } from './event-session-state.ts'

const heartbeatBytes = new TextEncoder().encode(SSE_HEARTBEAT)
const replayPage = 500

/** The next page of stored events up to `replayUpTo`, or undefined when it held nothing to send. */
async function nextReplayed(state: EventSessionState): Promise<Uint8Array | undefined> {
  const events = await state.store.read(
    state.conversationId,
    state.lastSent,
    state.replayUpTo,
    replayPage,
  )
  if (events.length === 0) {
    state.replayUpTo = state.lastSent
    return undefined
  }
  state.lastSent = events.at(-1)?.seq ?? state.lastSent
  const out: EncodedEnvelope[] = []
  if (state.compactor) {
    for (const event of events) state.compactor.push(event, out)
    if (state.lastSent >= state.replayUpTo) {
      state.compactor.flush(out)
      state.compactor = undefined
    }
  } else {
    for (const event of events) out.push(encodeEnvelope(event.seq, event.runId, event.chunkText))
  }
  return out.length > 0 ? concatBytes(out.map((envelope) => envelope.bytes)) : undefined
}

/** The queued live envelopes that follow what was sent; a gap sends the reader to the table. */
function nextQueued(state: EventSessionState): Uint8Array | undefined {
  const taken = state.queue
  state.queue = []
  const parts: Uint8Array[] = []
  for (const [index, envelope] of taken.entries()) {
    if (envelope.seq <= state.lastSent) continue
    if (envelope.seq > state.lastSent + 1) {
      // A gap (the backlog was dropped): read it from the table, keep the rest queued.
      state.replayUpTo = envelope.seq - 1
      state.queue = taken.slice(index).concat(state.queue)
      break
    }
    parts.push(envelope.bytes)
    state.lastSent = envelope.seq
  }
  return parts.length > 0 ? concatBytes(parts) : undefined
}

/** The next bytes to send, or undefined once the stream is closed. */
export async function nextBytes(state: EventSessionState): Promise<Uint8Array | undefined> {
  for (;;) {
    if (state.closed) return undefined
    if (state.overflowed) {
      state.overflowed = false
      state.replayUpTo = Math.max(state.replayUpTo, state.hub.lastDelivered(state.conversationId))
    }
    if (state.lastSent < state.replayUpTo) {
      const bytes = await nextReplayed(state)
      if (bytes) return bytes
      continue
    }
    if (state.queue.length > 0) {
      const bytes = nextQueued(state)
      if (bytes) return bytes
      continue
    }
    if (state.heartbeatDue) {
      state.heartbeatDue = false
      return heartbeatBytes
    }
    state.parked = true
    await new Promise<void>((resolve) => {
      state.wake = resolve
    })
  }
}
