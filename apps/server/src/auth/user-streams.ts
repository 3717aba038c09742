import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { Context } from 'hono'
import type { AppEnv } from '../http/app-env.ts'

const channel = 'sprout_user_streams'
/** Longer than a listen token lives (GET /api/auth/token: 5 minutes). */
const signedOutMemoryMs = 6 * 60_000

export type UserStreams = ReturnType<typeof createUserStreams>

/**
 * The live streams each user holds open in this process (the builder's and the exploration's).
 * Signing a user out everywhere, or banning them, ends them in every process at once (NOTIFY): the
 * browser reconnects, its token call answers 401 and it goes to sign-in (docs/product/admin.md
 * "Users tab").
 */
export function createUserStreams(database: DatabaseHandle) {
  const instanceId = randomUUID()
  const streams = new Map<string, Set<() => void>>()
  let stopListening: (() => Promise<void>) | undefined

  // When each user was last signed out, kept as long as a listen token lives (5 minutes).
  const signedOut = new Map<string, number>()
  const closeLocal = (userId: string) => {
    const now = Date.now()
    for (const [id, at] of signedOut) if (now - at > signedOutMemoryMs) signedOut.delete(id)
    signedOut.set(userId, now)
    const closers = streams.get(userId)
    streams.delete(userId)
    for (const close of closers ?? []) close()
  }

  /** Registers an open stream and how to end it; returns its release, for when it ends. */
  const hold = (userId: string, close: () => void): (() => void) => {
    const closers = streams.get(userId) ?? new Set()
    closers.add(close)
    streams.set(userId, closers)
    return () => {
      closers.delete(close)
      if (closers.size === 0 && streams.get(userId) === closers) streams.delete(userId)
    }
  }

  return {
    hold,
    /**
     * Holds the response a listen route is about to stream (Node's, written by sse-response.ts)
     * until it ends; signing the user out destroys it. In-process requests (tests) have none.
     */
    holdResponse: (userId: string, context: Context<AppEnv>): (() => void) => {
      const outgoing = context.env?.outgoing as ServerResponse | undefined
      if (!outgoing) return () => {}
      return hold(userId, () => outgoing.destroy())
    },
    /** Ends every stream of the user, here and in the other processes. */
    closeAll: async (userId: string) => {
      closeLocal(userId)
      await database.notify(channel, `${instanceId} ${userId}`)
    },
    openCount: (userId: string) => streams.get(userId)?.size ?? 0,
    /** Whether the user was signed out everywhere at or after `time` (ms), as far as this process heard. */
    signedOutSince: (userId: string, time: number) => {
      const at = signedOut.get(userId)
      return at !== undefined && at >= time
    },
    start: async () => {
      stopListening = await database.listen(channel, (payload) => {
        const [sender, userId] = payload.split(' ')
        if (sender !== instanceId && userId) closeLocal(userId)
      })
    },
    stop: async () => {
      await stopListening?.()
    },
  }
}
