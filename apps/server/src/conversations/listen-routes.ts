import type { Database } from '@sprout/db/database.ts'
import { listenQuerySchema } from '@sprout/protocol/api/conversations.ts'
import type { Context } from 'hono'
import { Hono } from 'hono'
import type { Auth } from '../auth/auth.ts'
import type { AuthCache } from '../auth/auth-cache.ts'
import { requireSession } from '../auth/require-session.ts'
import type { UserStreams } from '../auth/user-streams.ts'
import type { Config } from '../config/config.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import type { AppEnv } from '../http/app-env.ts'
import { notFound, unauthorized } from '../http/app-error.ts'
import { parseQuery } from '../http/parse-request.ts'
import { findMembership } from '../organizations/service.ts'
import {
  type ConversationRuntime,
  findConversationOfApplication,
  lastEventIdOf,
} from '../runs/service.ts'
import { sseResponse } from '../stream/sse-response.ts'
import { createListenTokenVerifier } from './listen-token.ts'

/**
 * GET /api/demo/applications/{id}/listen. EventSource cannot send headers, so the caller proves
 * who they are with `token`, a short-lived JWT from GET /api/auth/token (never the session token);
 * without one, the session cookie or bearer header is used. Mounted before the session middleware.
 */
export function conversationListenRoutes(options: {
  db: Database
  auth: Auth
  config: Config
  authCache: AuthCache
  runtime: ConversationRuntime
  devboxes: DevboxRuntime
  /** Ends the stream when its session ends (signed out, revoked, reset, banned…). */
  userStreams: UserStreams
}) {
  const { db, auth, runtime } = options
  const session = requireSession(auth, options.config, options.authCache)
  const verifyToken = createListenTokenVerifier(auth, options.config.publicUrl)
  const app = new Hono<AppEnv>()

  const ownerOf = async (context: Context<AppEnv>, token: string | undefined) => {
    if (token === undefined) {
      await session(context, async () => {})
      return { userId: context.var.user.id, sessionId: context.var.session.id }
    }
    const claims = await verifyToken(token)
    // A token whose session has ended (however it ended) opens nothing.
    if (!claims || !(await options.userStreams.isLive(claims.sessionId))) {
      throw unauthorized('Invalid or expired listen token')
    }
    return claims
  }

  app.get('/api/demo/applications/:id/listen', async (context) => {
    const query = parseQuery(context, listenQuerySchema)
    const owner = await ownerOf(context, query.token)
    const { userId } = owner
    const conversation = await findConversationOfApplication(
      db,
      context.req.param('id'),
      query.conversation_id,
    )
    const membership = conversation
      ? await findMembership(
          { db, userId, memberships: options.authCache.memberships },
          conversation.organizationId,
        )
      : undefined
    // The same answer for a missing conversation and one the caller may not see.
    if (!conversation || !membership) throw notFound('Conversation not found')
    // An open builder keeps its app's dev server from idling (docs/architecture/devbox.md).
    const releaseBox = options.devboxes.hold(context.req.param('id'))
    const releaseStream = options.userStreams.holdResponse(
      { ...owner, organizationId: conversation.organizationId },
      context,
    )
    const release = () => {
      releaseBox()
      releaseStream()
    }
    try {
      return await sseResponse(context, {
        hub: runtime.hub,
        store: runtime.store,
        conversationId: conversation.id,
        after: lastEventIdOf(context, query.last_event_id),
        onClose: release,
      })
    } catch (error) {
      release()
      throw error
    }
  })
  return app
}
