import type { DatabaseHandle } from '@sprout/db/database.ts'
import { SSE_HEARTBEAT_INTERVAL_MS } from '@sprout/protocol/constants.ts'
import { type EncodedEnvelope, encodeEnvelope, LiveBatch } from './encoded-envelope.ts'
import { EVENTS_CHANNEL, type EventStore } from './event-store.ts'

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

type Channel = {
  conversationId: string
  /** The highest seq delivered to this channel's listeners; they have seen every seq up to it. */
  lastSeq: number
  ready: Promise<void>
  isReady: boolean
  listeners: Set<HubListener>
  catchingUp: boolean
  catchUpAgain: boolean
}

const catchUpPage = 1_000

export type EventHub = ReturnType<typeof createEventHub>

/**
 * Live fan-out of stored events to the listeners of this process. Events written here arrive
 * through `published` right after their commit (the fast path); events written by another
 * process arrive as a NOTIFY `{conversationId}:{seq}` and are read from the table after the last
 * seq delivered. Either way each listener gets every seq once, in order, without gaps.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the listeners and the NOTIFY subscription its methods share
export function createEventHub(options: {
  database: DatabaseHandle
  store: () => EventStore
  heartbeatMs?: number
}) {
  const { database } = options
  const channels = new Map<string, Channel>()
  let stopListening: (() => Promise<void>) | undefined
  let heartbeatTimer: ReturnType<typeof setInterval> | undefined

  /**
   * Delivers the envelopes after the channel's last seq, as one batch to each listener; false
   * when one is missing (a gap: the caller reads it from the table).
   */
  const deliverNext = (channel: Channel, envelopes: readonly EncodedEnvelope[]): boolean => {
    let start = 0
    while (
      start < envelopes.length &&
      (envelopes[start] as EncodedEnvelope).seq <= channel.lastSeq
    ) {
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
      const fresh =
        start === 0 && end === envelopes.length ? envelopes : envelopes.slice(start, end)
      const batch = new LiveBatch(fresh)
      channel.lastSeq = batch.last
      for (const listener of channel.listeners) {
        if (listener.deliverBatch) listener.deliverBatch(batch)
        else for (const envelope of fresh) listener.deliver(envelope)
      }
    }
    return end === envelopes.length
  }

  const catchUp = async (channel: Channel) => {
    if (channel.catchingUp) {
      channel.catchUpAgain = true
      return
    }
    channel.catchingUp = true
    try {
      do {
        channel.catchUpAgain = false
        const events = await options
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

  const openChannel = (conversationId: string): Channel => {
    const channel: Channel = {
      conversationId,
      lastSeq: 0,
      ready: Promise.resolve(),
      isReady: false,
      listeners: new Set(),
      catchingUp: false,
      catchUpAgain: false,
    }
    channel.ready = options
      .store()
      .lastSeq(conversationId)
      .then((lastSeq) => {
        channel.lastSeq = Math.max(channel.lastSeq, lastSeq)
        channel.isReady = true
        // Anything stored while the channel opened is read now rather than lost.
        if (channel.catchUpAgain) void catchUp(channel)
      })
    channels.set(conversationId, channel)
    return channel
  }

  const onNotify = (payload: string) => {
    const separator = payload.lastIndexOf(':')
    const channel = channels.get(payload.slice(0, separator))
    const seq = Number(payload.slice(separator + 1))
    if (!channel) return
    if (!channel.isReady) {
      channel.catchUpAgain = true
      return
    }
    // Deferred: for this process's own writes the fast path has usually delivered it by then.
    setImmediate(() => {
      if (seq > channel.lastSeq && channels.get(channel.conversationId) === channel) {
        void catchUp(channel)
      }
    })
  }

  return {
    start: async () => {
      stopListening = await database.listen(EVENTS_CHANNEL, onNotify)
      heartbeatTimer = setInterval(() => {
        for (const channel of channels.values()) {
          for (const listener of channel.listeners) listener.heartbeat()
        }
      }, options.heartbeatMs ?? SSE_HEARTBEAT_INTERVAL_MS)
      heartbeatTimer.unref()
    },

    stop: async () => {
      clearInterval(heartbeatTimer)
      await stopListening?.()
      for (const channel of channels.values()) {
        for (const listener of channel.listeners) listener.close()
      }
      channels.clear()
    },

    /** Called by the store with each committed batch of this process. */
    published: (conversationId: string, envelopes: EncodedEnvelope[]) => {
      const channel = channels.get(conversationId)
      if (!channel) return
      if (!channel.isReady) {
        channel.catchUpAgain = true
        return
      }
      if (!deliverNext(channel, envelopes)) void catchUp(channel)
    },

    /**
     * Adds a listener; it receives every envelope with seq > `startAt`, in order. Envelopes up to
     * `startAt` are the caller's to read from the store.
     */
    subscribe: async (
      conversationId: string,
      listener: HubListener,
    ): Promise<{ startAt: number; unsubscribe: () => void }> => {
      const channel = channels.get(conversationId) ?? openChannel(conversationId)
      channel.listeners.add(listener)
      const unsubscribe = () => {
        channel.listeners.delete(listener)
        if (channel.listeners.size === 0 && channels.get(conversationId) === channel) {
          channels.delete(conversationId)
        }
      }
      try {
        await channel.ready
      } catch (error) {
        unsubscribe()
        if (channels.get(conversationId) === channel) channels.delete(conversationId)
        throw error
      }
      return { startAt: channel.lastSeq, unsubscribe }
    },

    /** The highest seq delivered to the conversation's listeners (0 without a channel). */
    lastDelivered: (conversationId: string): number => channels.get(conversationId)?.lastSeq ?? 0,

    /** Listeners of this process and the live envelopes they hold, for tests and benchmarks. */
    stats: () => {
      let listeners = 0
      let queued = 0
      let maxQueued = 0
      for (const channel of channels.values()) {
        for (const listener of channel.listeners) {
          const held = listener.queued?.() ?? 0
          listeners++
          queued += held
          maxQueued = Math.max(maxQueued, held)
        }
      }
      return { listeners, queued, maxQueued }
    },
  }
}
