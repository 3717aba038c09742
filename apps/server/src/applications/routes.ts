import type { Database } from '@sprout/db/database.ts'
import { createApplicationRequestSchema } from '@sprout/protocol/api/applications.ts'
import { Hono } from 'hono'
import { requirePlatformAdmin } from '../admin/require-platform-admin.ts'
import type { AppEnv } from '../app-env.ts'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { Config } from '../config/config.ts'
import { deployApplication, removeDeploys } from '../devboxes/deploys/service.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import { errorDsn } from '../error-monitoring/service.ts'
import type { Origins } from '../http/origins.ts'
import { parseJsonBody } from '../http/parse-request.ts'
import { requireRunnableModel } from '../models/service.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import {
  type ApplicationContext,
  createApplicationRecord,
  deleteApplicationRecord,
  findApplicationRecord,
  getApplication,
  listApplications,
} from './service.ts'

export type ApplicationRoutesOptions = {
  db: Database
  config: Config
  origins: Origins
  memberships: MembershipCache
  devboxes: DevboxRuntime
  deploysDir: string
  /** Stops whatever still works on the application (its agent runs) before it is deleted. */
  beforeDelete: (applicationId: string) => Promise<void>
}

export function applicationRoutes(options: ApplicationRoutesOptions) {
  const { db, origins, devboxes, deploysDir } = options
  const app = new Hono<AppEnv>()
  app.use('/api/applications', requireOrganization(db, options.memberships))
  app.use('/api/applications/*', requireOrganization(db, options.memberships))

  const contextOf = (variables: AppEnv['Variables']): ApplicationContext => ({
    db,
    origins,
    organization: variables.organization,
    userId: variables.user.id,
  })

  app.post('/api/applications', async (context) => {
    const input = await parseJsonBody(context, createApplicationRequestSchema)
    requireRunnableModel(options.config, input.model)
    const record = await createApplicationRecord(contextOf(context.var), {
      name: input.name,
      initialPrompt: input.initial_prompt,
      model: input.model,
    })
    await devboxes.attach(record.id)
    return context.json({ id: record.id }, 201)
  })

  app.get('/api/applications', async (context) =>
    context.json(await listApplications(contextOf(context.var))),
  )

  app.get('/api/applications/:id', async (context) => {
    const application = await getApplication(contextOf(context.var), context.req.param('id'))
    return context.json({
      ...application,
      dsn: await errorDsn(contextOf(context.var), application.id),
    })
  })

  app.delete('/api/applications/:id', async (context) => {
    const record = await findApplicationRecord(contextOf(context.var), context.req.param('id'))
    await options.beforeDelete(record.id)
    await devboxes.destroy(record.id)
    await removeDeploys(deploysDir, record.id, devboxes.appServers)
    await deleteApplicationRecord(contextOf(context.var), record.id)
    return context.json({ success: true })
  })

  app.get('/api/applications/:id/editor-ready', async (context) => {
    const record = await findApplicationRecord(contextOf(context.var), context.req.param('id'))
    const state = devboxes.state(record.id)
    if (state === 'failed') {
      return context.json({ ready: false, error: 'The dev box could not be started.' })
    }
    if (state !== 'ready') return context.json({ ready: false })
    const ready = await devboxes.isEditorReady(record.id)
    return context.json(ready ? { ready } : { ready, starting_preview: true })
  })

  app.post('/api/applications/:id/deploy', requirePlatformAdmin, async (context) =>
    context.json(
      await deployApplication(
        { ...contextOf(context.var), devboxes, deploysDir },
        context.req.param('id'),
      ),
    ),
  )
  return app
}
