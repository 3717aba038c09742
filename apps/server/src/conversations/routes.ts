import { buildSystemPrompt } from '@sprout/agent/system-prompt.ts'
import type { Database } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import {
  cancelStagedQuerySchema,
  continueRequestSchema,
  conversationQuerySchema,
  sendMessageRequestSchema,
  stageMessageRequestSchema,
} from '@sprout/protocol/api/conversations.ts'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { findApplicationRecord } from '../applications/service.ts'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import { badRequest } from '../http/app-error.ts'
import type { Origins } from '../http/origins.ts'
import {
  parseJsonBody,
  parseOptionalJsonObject,
  parseQuery,
  parseValue,
} from '../http/parse-request.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import {
  type ConversationRuntime,
  cancelStagedMessage,
  chatContextOf,
  continueConversation,
  interruptConversation,
  presentSentMessage,
  sendMessage,
  stageMessage,
} from '../runs/service.ts'
import { builderScope, listConversations } from './service.ts'

/** Apps of the client-only starter (made before the full-stack one) get no server side. */
const builderSystemPrompt = (appName: string) => (box: Devbox | undefined) =>
  buildSystemPrompt({ appName, backEnd: box?.packType !== 'vite-react' })

/**
 * The builder chat (docs/product/api.md), under /api/demo/applications/{id}/…; listen is in
 * listen-routes.
 */
export function conversationRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
  runtime: ConversationRuntime
}) {
  const { db, origins, runtime } = options
  const app = new Hono<AppEnv>()
  app.use('/api/demo/applications/*', requireOrganization(db, options.memberships))

  const contextOf = (context: Context<AppEnv>) => chatContextOf(db, runtime, context.var)
  const applicationOf = (context: Context<AppEnv>) =>
    findApplicationRecord(
      { db, origins, organization: context.var.organization, userId: context.var.user.id },
      context.req.param('id') ?? '',
    )
  /** `?conversation_id=` (docs/product/api.md), or the same field in a JSON body; and the body. */
  const conversationCall = async (context: Context<AppEnv>) => {
    const body = await parseOptionalJsonObject(context)
    const fromBody = body.conversation_id
    const parsed = conversationQuerySchema.safeParse({
      conversation_id: context.req.query('conversation_id') ?? fromBody,
    })
    if (!parsed.success) throw badRequest('Missing query parameter "conversation_id"')
    return { conversationId: parsed.data.conversation_id, body }
  }

  app.get('/api/demo/applications/:id/conversations', async (context) => {
    const application = await applicationOf(context)
    return context.json(await listConversations(contextOf(context), application))
  })

  app.post('/api/demo/applications/:id/message', async (context) => {
    const input = await parseJsonBody(context, sendMessageRequestSchema)
    const application = await applicationOf(context)
    const { conversation, runId } = await sendMessage(
      contextOf(context),
      builderScope(application),
      {
        message: input.message,
        model: input.model,
        conversationId: input.conversation_id,
        clientId: input.client_id,
        system: builderSystemPrompt(application.name),
        images: input.images,
        selections: input.selections,
      },
    )
    return context.json(presentSentMessage(conversation, runId))
  })

  app.post('/api/demo/applications/:id/stage-message', async (context) => {
    const input = await parseJsonBody(context, stageMessageRequestSchema)
    const application = await applicationOf(context)
    const status = await stageMessage(contextOf(context), builderScope(application), {
      conversationId: input.conversation_id,
      message: input.message,
      clientId: input.client_id,
    })
    return context.json({ status })
  })

  app.delete('/api/demo/applications/:id/stage-message', async (context) => {
    const query = parseQuery(context, cancelStagedQuerySchema)
    const application = await applicationOf(context)
    const status = await cancelStagedMessage(contextOf(context), builderScope(application), {
      conversationId: query.conversation_id,
      clientId: query.client_id,
    })
    return context.json({ status })
  })

  app.post('/api/demo/applications/:id/interrupt', async (context) => {
    const { conversationId } = await conversationCall(context)
    const application = await applicationOf(context)
    const interrupted = await interruptConversation(
      contextOf(context),
      builderScope(application),
      conversationId,
    )
    return context.json({ interrupted })
  })

  app.post('/api/demo/applications/:id/continue', async (context) => {
    const { conversationId, body } = await conversationCall(context)
    const input = parseValue(continueRequestSchema, body)
    const application = await applicationOf(context)
    const { conversation, runId } = await continueConversation(
      contextOf(context),
      builderScope(application),
      {
        conversationId,
        model: input.model,
        system: builderSystemPrompt(application.name),
      },
    )
    return context.json({ conversation_id: conversation.id, run_id: runId })
  })

  return app
}
