import type { Database } from '@sprout/db/database.ts'
import {
  adminConversationsQuerySchema,
  createEvaluationRequestSchema,
  evaluationTemplates,
} from '@sprout/protocol/api/evaluations.ts'
import { Hono } from 'hono'
import { requirePlatformAdmin } from '../admin/require-platform-admin.ts'
import type { Config } from '../config/config.ts'
import type { AppEnv } from '../http/app-env.ts'
import { parseJsonBody, parseQuery } from '../http/parse-request.ts'
import type { EvaluationRunner } from './runner.ts'
import {
  createEvaluation,
  evaluationStatus,
  getEvaluation,
  listAdminConversations,
  rawResults,
} from './service.ts'

/** docs/product/admin.md "Conversation Evaluations tab": platform admins only. */
export function evaluationRoutes(options: {
  db: Database
  config: Config
  runner: EvaluationRunner
}) {
  const { db, config, runner } = options
  const app = new Hono<AppEnv>()
  app.use('/api/admin/conversations', requirePlatformAdmin)
  app.use('/api/admin/conversation-evals', requirePlatformAdmin)
  app.use('/api/admin/conversation-evals/*', requirePlatformAdmin)
  app.get('/api/admin/conversations', async (context) =>
    context.json(
      await listAdminConversations(db, parseQuery(context, adminConversationsQuerySchema)),
    ),
  )
  app.get('/api/admin/conversation-evals/prompts', (context) =>
    context.json(evaluationTemplates.map(({ name, description }) => ({ name, description }))),
  )
  app.post('/api/admin/conversation-evals', async (context) => {
    const request = await parseJsonBody(context, createEvaluationRequestSchema)
    const created = await createEvaluation({ db, config, userId: context.var.user.id }, request)
    return context.json(created, 201)
  })
  app.get('/api/admin/conversation-evals/:id', async (context) =>
    context.json(await getEvaluation(db, context.req.param('id'))),
  )
  app.post('/api/admin/conversation-evals/:id/start', async (context) => {
    await runner.start(context.req.param('id'))
    return context.json(await getEvaluation(db, context.req.param('id')))
  })
  app.get('/api/admin/conversation-evals/:id/status', async (context) =>
    context.json(await evaluationStatus(db, context.req.param('id'))),
  )
  app.get('/api/admin/conversation-evals/:id/results/raw', async (context) => {
    const text = await rawResults(db, context.req.param('id'))
    return context.text(text, 200, { 'content-type': 'text/plain; charset=utf-8' })
  })
  return app
}
