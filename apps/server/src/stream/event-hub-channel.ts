import type { DatabaseHandle } from '@sprout/db/database.ts'
import { type EncodedEnvelope, encodeEnvelope, LiveBatch } from './encoded-envelope.ts'
import type { EventStore } from './event-store.ts'

/** What a listener of one conversation receives: every stored envelope after its start, in order. */
export type HubListener = {
  deliver: (envelope: EncodedEnvelope) => void
  /**
   * Takes consecutive envelopes at once instead of `deliver` one by one: the batch's bytes are
   * built once and shared by every listener of the conversation.
   */
  deliverBatch?: (batch: LiveBatch) => void
  heartbeat: () => void
  close: () => void
  /** Envelopes delivered but not yet sent (for stats). */
  queued?: () => number
}

export type Channel = {
  conversationId: string
  /** The highest seq delivered to this channel's listeners; they have seen every seq up to it. */
  lastSeq: number
  ready: Promise<void>
  isReady: boolean
  listeners: Set<HubListener>
  catchingUp: boolean
  catchUpAgain: boolean
}

/** What the hub's verbs share: the channels of this process and its NOTIFY subscription. */
export type HubState = {
  database: DatabaseHandle
  store: () => EventStore
  heartbeatMs: number
  channels: Map<string, Channel>
  stopListening: (() => Promise<void>) | undefined
  heartbeatTimer: ReturnType<typeof setInterval> | undefined
}

const catchUpPage = 1_000

/**
 * Delivers the envelopes after the channel's last seq, as one batch to each listener; false
 * when one is missing (a gap: the caller reads it from the table).
 */
export function deliverNext(channel: Channel, envelopes: readonly EncodedEnvelope[]): boolean {
  let start = 0
  while (start < envelopes.length && (envelopes[start] as EncodedEnvelope).seq <= channel.lastSeq) {
    start++
  }
  let end = start
  while (
    end < envelopes.length &&
    (envelopes[end] as EncodedEnvelope).seq === channel.lastSeq + 1 + (end - start)
  ) {
    end++
  }
  if (end > start) {
    const fresh = start === 0 && end === envelopes.length ? envelopes : envelopes.slice(start, end)
    const batch = new LiveBatch(fresh)
    channel.lastSeq = batch.last
    for (const listener of channel.listeners) {
      if (listener.deliverBatch) listener.deliverBatch(batch)
      else for (const envelope of fresh) listener.deliver(envelope)
    }
  }
  return end === envelopes.length
}

/** Reads what the channel's listeners have not seen from the table, page by page. */
export async function catchUp(state: HubState, channel: Channel) {
  if (channel.catchingUp) {
    channel.catchUpAgain = true
    return
  }
  channel.catchingUp = true
  try {
    do {
      channel.catchUpAgain = false
      const events = await state
        .store()
        .read(channel.conversationId, channel.lastSeq, Number.MAX_SAFE_INTEGER, catchUpPage)
      deliverNext(
        channel,
        events.map((event) => encodeEnvelope(event.seq, event.runId, event.chunkText)),
      )
      if (events.length === catchUpPage) channel.catchUpAgain = true
    } while (channel.catchUpAgain && channel.listeners.size > 0)
  } catch (error) {
    console.error('[events] catching up failed:', error)
  } finally {
    channel.catchingUp = false
  }
}

/**
 * After the listener reconnected: events notified meanwhile were lost, so every open channel
 * reads after its last seq (a channel still opening reads once it is ready).
 */
export function catchUpAll(state: HubState) {
  for (const channel of state.channels.values()) {
    if (channel.isReady) void catchUp(state, channel)
    else channel.catchUpAgain = true
  }
}

export function openChannel(state: HubState, conversationId: string): Channel {
  const channel: Channel = {
    conversationId,
    lastSeq: 0,
    ready: Promise.resolve(),
    isReady: false,
    listeners: new Set(),
    catchingUp: false,
    catchUpAgain: false,
  }
  channel.ready = state
    .store()
    .lastSeq(conversationId)
    .then((lastSeq) => {
      channel.lastSeq = Math.max(channel.lastSeq, lastSeq)
      channel.isReady = true
      // Anything stored while the channel opened is read now rather than lost.
      if (channel.catchUpAgain) void catchUp(state, channel)
    })
  state.channels.set(conversationId, channel)
  return channel
}

/** A NOTIFY `{conversationId}:{seq}`: another process (or this one) stored an event. */
export function onNotify(state: HubState, payload: string) {
  const separator = payload.lastIndexOf(':')
  const channel = state.channels.get(payload.slice(0, separator))
  const seq = Number(payload.slice(separator + 1))
  if (!channel) return
  if (!channel.isReady) {
    channel.catchUpAgain = true
    return
  }
  // Deferred: for this process's own writes the fast path has usually delivered it by then.
  setImmediate(() => {
    if (seq > channel.lastSeq && state.channels.get(channel.conversationId) === channel) {
      void catchUp(state, channel)
    }
  })
}

/**
 * Adds a listener; it receives every envelope with seq > `startAt`, in order. Envelopes up to
 * `startAt` are the caller's to read from the store.
 */
export async function subscribe(
  state: HubState,
  conversationId: string,
  listener: HubListener,
): Promise<{ startAt: number; unsubscribe: () => void }> {
  const channel = state.channels.get(conversationId) ?? openChannel(state, conversationId)
  channel.listeners.add(listener)
  const unsubscribe = () => {
    channel.listeners.delete(listener)
    if (channel.listeners.size === 0 && state.channels.get(conversationId) === channel) {
      state.channels.delete(conversationId)
    }
  }
  try {
    await channel.ready
  } catch (error) {
    unsubscribe()
    if (state.channels.get(conversationId) === channel) state.channels.delete(conversationId)
    throw error
  }
  return { startAt: channel.lastSeq, unsubscribe }
}

/** Listeners of this process and the live envelopes they hold, for tests and benchmarks. */
export function hubStats(state: HubState) {
  let listeners = 0
  let queued = 0
  let maxQueued = 0
  for (const channel of state.channels.values()) {
    for (const listener of channel.listeners) {
      const held = listener.queued?.() ?? 0
      listeners++
      queued += held
      maxQueued = Math.max(maxQueued, held)
    }
  }
  return { listeners, queued, maxQueued }
}
