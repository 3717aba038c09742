import type { Database } from '@sprout/db/database.ts'
import {
  continueRequestSchema,
  createExplorationRequestSchema,
  explorationListenRequestSchema,
  explorationMessageRequestSchema,
} from '@sprout/protocol/api/conversations.ts'
import type { Context } from 'hono'
import { Hono } from 'hono'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { UserStreams } from '../auth/user-streams.ts'
import type { AppEnv } from '../http/app-env.ts'
import { parseJsonBody, parseOptionalJsonBody } from '../http/parse-request.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import {
  type ConversationRuntime,
  chatContextOf,
  continueConversation,
  findConversationRecord,
  interruptConversation,
  lastEventIdOf,
} from '../runs/service.ts'
import { sseResponse } from '../stream/sse-response.ts'
import { explorationSystemPrompt } from './exploration-prompt.ts'
import {
  createExploration,
  explorationScope,
  getExploration,
  sendExplorationMessage,
} from './service.ts'

/** The exploration chat (docs/product/exploration.md): brainstorming with no tools, no app. */
export function explorationRoutes(options: {
  db: Database
  memberships: MembershipCache
  runtime: ConversationRuntime
  /** Ends the stream when its user is signed out everywhere or banned. */
  userStreams: UserStreams
}) {
  const { db, runtime } = options
  const app = new Hono<AppEnv>()
  app.use('/api/explorations', requireOrganization(db, options.memberships))
  app.use('/api/explorations/*', requireOrganization(db, options.memberships))

  const contextOf = (context: Context<AppEnv>) => chatContextOf(db, runtime, context.var)
  const idOf = (context: Context<AppEnv>) => context.req.param('id') ?? ''

  app.post('/api/explorations', async (context) => {
    const input = await parseOptionalJsonBody(context, createExplorationRequestSchema)
    const { conversation, runId } = await createExploration(contextOf(context), {
      message: input.message,
      model: input.model,
      clientId: input.client_id,
      images: input.images,
    })
    return context.json(
      { id: conversation.id, title: conversation.title, ...(runId ? { run_id: runId } : {}) },
      201,
    )
  })

  app.get('/api/explorations/:id', async (context) =>
    context.json(await getExploration(contextOf(context), idOf(context))),
  )

  app.post('/api/explorations/:id/message', async (context) => {
    const input = await parseJsonBody(context, explorationMessageRequestSchema)
    const { conversation, runId } = await sendExplorationMessage(contextOf(context), {
      explorationId: idOf(context),
      message: input.message,
      model: input.model,
      clientId: input.client_id,
      images: input.images,
    })
    return context.json({ id: conversation.id, title: conversation.title, run_id: runId })
  })

  app.post('/api/explorations/:id/interrupt', async (context) => {
    const chat = contextOf(context)
    const interrupted = await interruptConversation(chat, explorationScope(chat), idOf(context))
    return context.json({ interrupted })
  })

  app.post('/api/explorations/:id/continue', async (context) => {
    const input = await parseOptionalJsonBody(context, continueRequestSchema)
    const chat = contextOf(context)
    const { conversation, runId } = await continueConversation(chat, explorationScope(chat), {
      conversationId: idOf(context),
      model: input.model,
      system: explorationSystemPrompt(),
    })
    return context.json({ id: conversation.id, run_id: runId })
  })

  app.post('/api/explorations/:id/listen', async (context) => {
    const input = await parseOptionalJsonBody(context, explorationListenRequestSchema)
    const chat = contextOf(context)
    const conversation = await findConversationRecord(db, explorationScope(chat), idOf(context))
    const owner = {
      userId: context.var.user.id,
      sessionId: context.var.session.id,
      organizationId: context.var.organization.id,
    }
    const release = options.userStreams.holdResponse(owner, context)
    try {
      return await sseResponse(context, {
        hub: runtime.hub,
        store: runtime.store,
        conversationId: conversation.id,
        after: lastEventIdOf(context, input.last_event_id),
        onClose: release,
      })
    } catch (error) {
      release()
      throw error
    }
  })

  return app
}
