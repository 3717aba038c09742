import type { Database } from '@sprout/db/database.ts'
import { updateApplicationRequestSchema } from '@sprout/protocol/api/app-visibility.ts'
import { createApplicationRequestSchema } from '@sprout/protocol/api/applications.ts'
import { Hono } from 'hono'
import type { AuthCache, MembershipCache } from '../auth/auth-cache.ts'
import type { Config } from '../config/config.ts'
import type { AppEnv } from '../http/app-env.ts'
import type { Origins } from '../http/origins.ts'
import { parseJsonBody } from '../http/parse-request.ts'
import { type RequestContext, requestContextOf } from '../http/request-context.ts'
import { requireRunnableModel } from '../models/service.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import {
  createApplicationRecord,
  deleteApplicationRecord,
  findApplicationRecord,
  getApplication,
  listApplications,
} from './service.ts'
import { updateApplicationVisibility } from './visibility.ts'

/**
 * What the areas above applications do when one is created, shown or deleted (its dev box, its
 * runs and deploys, its error DSN); the composition root wires them in.
 */
export type ApplicationLifecycle = {
  /** After the row is stored. */
  created: (applicationId: string) => Promise<void>
  /** Before the row is deleted: whatever still works on it is stopped and removed. */
  deleting: (applicationId: string) => Promise<void>
  /** Fields other areas add to an application's details. */
  details: (context: RequestContext, applicationId: string) => Promise<Record<string, unknown>>
}

export type ApplicationRoutesOptions = {
  db: Database
  config: Config
  origins: Origins
  memberships: MembershipCache
  /** Flushed on a visibility change, so every instance's apps host reads it at once. */
  authCache: Pick<AuthCache, 'flush'>
  lifecycle: ApplicationLifecycle
}

export function applicationRoutes(options: ApplicationRoutesOptions) {
  const { db, origins, lifecycle } = options
  const app = new Hono<AppEnv>()
  app.use('/api/applications', requireOrganization(db, options.memberships))
  app.use('/api/applications/*', requireOrganization(db, options.memberships))

  const contextOf = (variables: AppEnv['Variables']) => requestContextOf({ db, origins }, variables)

  app.post('/api/applications', async (context) => {
    const input = await parseJsonBody(context, createApplicationRequestSchema)
    requireRunnableModel(options.config, input.model)
    const record = await createApplicationRecord(contextOf(context.var), {
      name: input.name,
      initialPrompt: input.initial_prompt,
      model: input.model,
    })
    await lifecycle.created(record.id)
    return context.json({ id: record.id }, 201)
  })

  app.get('/api/applications', async (context) =>
    context.json(await listApplications(contextOf(context.var))),
  )

  app.get('/api/applications/:id', async (context) => {
    const application = await getApplication(contextOf(context.var), context.req.param('id'))
    return context.json({
      ...application,
      ...(await lifecycle.details(contextOf(context.var), application.id)),
    })
  })

  app.patch('/api/applications/:id', async (context) => {
    const input = await parseJsonBody(context, updateApplicationRequestSchema)
    const requestContext = { ...contextOf(context.var), flushAccess: options.authCache.flush }
    return context.json(
      await updateApplicationVisibility(requestContext, context.req.param('id'), input),
    )
  })

  app.delete('/api/applications/:id', async (context) => {
    const record = await findApplicationRecord(contextOf(context.var), context.req.param('id'))
    await lifecycle.deleting(record.id)
    await deleteApplicationRecord(contextOf(context.var), record.id)
    return context.json({ success: true })
  })

  return app
}
