import type { DatabaseHandle } from '@sprout/db/database.ts'
import { SSE_HEARTBEAT_INTERVAL_MS } from '@sprout/protocol/constants.ts'
import type { EncodedEnvelope } from './encoded-envelope.ts'
import {
  catchUp,
  catchUpAll,
  deliverNext,
  type HubListener,
  type HubState,
  hubStats,
  onNotify,
  subscribe,
} from './event-hub-channel.ts'
import { EVENTS_CHANNEL, type EventStore } from './event-store.ts'

export type EventHub = ReturnType<typeof createEventHub>

/**
 * Fan-out of stored events to this process's listeners: local writes arrive through `published`
 * after commit, other processes' as NOTIFY `{conversationId}:{seq}`, read from the table after the
 * last seq delivered. Each listener gets every seq once, in order, without gaps.
 */
export function createEventHub(options: {
  database: DatabaseHandle
  store: () => EventStore
  heartbeatMs?: number
}) {
  const state: HubState = {
    database: options.database,
    store: options.store,
    heartbeatMs: options.heartbeatMs ?? SSE_HEARTBEAT_INTERVAL_MS,
    channels: new Map(),
    stopListening: undefined,
    heartbeatTimer: undefined,
  }
  return {
    start: async () => {
      state.stopListening = await state.database.listen(
        EVENTS_CHANNEL,
        (payload) => onNotify(state, payload),
        { onReconnect: () => catchUpAll(state) },
      )
      state.heartbeatTimer = setInterval(() => {
        for (const channel of state.channels.values()) {
          for (const listener of channel.listeners) listener.heartbeat()
        }
      }, state.heartbeatMs)
      state.heartbeatTimer.unref()
    },

    stop: async () => {
      clearInterval(state.heartbeatTimer)
      await state.stopListening?.()
      for (const channel of state.channels.values()) {
        for (const listener of channel.listeners) listener.close()
      }
      state.channels.clear()
    },

    /** Called by the store with each committed batch of this process. */
    published: (conversationId: string, envelopes: EncodedEnvelope[]) => {
      const channel = state.channels.get(conversationId)
      if (!channel) return
      if (!channel.isReady) {
        channel.catchUpAgain = true
        return
      }
      if (!deliverNext(channel, envelopes)) void catchUp(state, channel)
    },

    subscribe: (conversationId: string, listener: HubListener) =>
      subscribe(state, conversationId, listener),

    /** The highest seq delivered to the conversation's listeners (0 without a channel). */
    lastDelivered: (conversationId: string): number =>
      state.channels.get(conversationId)?.lastSeq ?? 0,

    stats: () => hubStats(state),
  }
}
