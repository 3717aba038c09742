import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { session } from '@sprout/db/schema/auth.ts'
import { and, eq, gt, inArray } from 'drizzle-orm'
import type { Context } from 'hono'
import type { AppEnv } from '../http/app-env.ts'
import { createHeldStreams, type StreamOwner } from './held-streams.ts'

const channel = 'sprout_user_streams'
/** Session ids per NOTIFY, well under PostgreSQL's 8,000-byte payload. */
const idsPerNotice = 100

export type UserStreams = ReturnType<typeof createUserStreams>

export type { StreamOwner }

/** Marks a notice that ends one membership's streams, not sessions' (no session id reads so). */
const membershipNotice = 'membership'

/**
 * The live streams open in this process (the builder's and the exploration's), by the session that
 * opened them. Every way a session ends — signing out, revoking it or the others, a password reset
 * or change, deleting the account, an admin's 'Sign out everywhere' or ban — ends its streams in
 * every process at once (NOTIFY): the browser reconnects, its token call answers 401 and it goes
 * to sign-in (docs/product/admin.md "Users tab").
 */
export function createUserStreams(database: DatabaseHandle) {
  const instanceId = randomUUID()
  const held = createHeldStreams()
  const { endLocal, endMembershipLocal, streams, ended } = held
  let stopListening: (() => Promise<void>) | undefined

  /**
   * An end notified while the listener was reconnecting is lost: every held session is looked up
   * again, and the streams of those gone or expired end here.
   */
  const endGoneAfterReconnect = async () => {
    try {
      const sessionIds = [...streams.keys()]
      for (let start = 0; start < sessionIds.length; start += idsPerNotice * 10) {
        const ids = sessionIds.slice(start, start + idsPerNotice * 10)
        const live = await database.db
          .select({ id: session.id })
          .from(session)
          .where(and(inArray(session.id, ids), gt(session.expiresAt, new Date())))
        const liveIds = new Set(live.map((row) => row.id))
        endLocal(ids.filter((id) => !liveIds.has(id)))
      }
    } catch (error) {
      console.error('[auth] checking open streams after the listener reconnected failed:', error)
    }
  }

  const { hold } = held
  return {
    hold,
    /**
     * Holds the response a listen route is about to stream (Node's, written by sse-response.ts)
     * until it ends; ending its session destroys it. In-process requests (tests) have none.
     */
    holdResponse: (owner: StreamOwner, context: Context<AppEnv>): (() => void) => {
      const outgoing = context.env?.outgoing as ServerResponse | undefined
      if (!outgoing) return () => {}
      return hold(owner, () => outgoing.destroy())
    },
    /** Ends the streams of these sessions (their rows already gone), here and in every process. */
    endSessions: async (sessionIds: readonly string[]) => {
      if (sessionIds.length === 0) return
      endLocal(sessionIds)
      for (let start = 0; start < sessionIds.length; start += idsPerNotice) {
        const ids = sessionIds.slice(start, start + idsPerNotice)
        await database.notify(channel, `${instanceId} ${ids.join(' ')}`)
      }
    },
    /** Ends, here and in every process, the streams a member who left opened in the organization. */
    endMembership: async (organizationId: string, userId: string) => {
      endMembershipLocal(organizationId, userId)
      await database.notify(
        channel,
        `${instanceId} ${membershipNotice} ${organizationId} ${userId}`,
      )
    },
    /** Whether the session still exists and has not expired (a listen token names its session). */
    isLive: async (sessionId: string): Promise<boolean> => {
      if (ended.has(sessionId)) return false
      const rows = await database.db
        .select({ id: session.id })
        .from(session)
        .where(and(eq(session.id, sessionId), gt(session.expiresAt, new Date())))
        .limit(1)
      return rows.length > 0
    },
    /** How many streams the user holds open in this process. */
    openCount: (userId: string) => {
      let count = 0
      for (const stream of streams.values())
        if (stream.userId === userId) count += stream.closers.size
      return count
    },
    start: async () => {
      stopListening = await database.listen(
        channel,
        (payload) => {
          const [sender, ...rest] = payload.split(' ')
          if (sender === instanceId || rest.length === 0) return
          if (rest[0] === membershipNotice) endMembershipLocal(rest[1] ?? '', rest[2] ?? '')
          else endLocal(rest)
        },
        { onReconnect: () => void endGoneAfterReconnect() },
      )
    },
    stop: async () => {
      await stopListening?.()
    },
  }
}
