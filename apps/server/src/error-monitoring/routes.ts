import type { Database } from '@sprout/db/database.ts'
import {
  errorGroupsQuerySchema,
  errorInstancesQuerySchema,
  updateErrorGroupStatusRequestSchema,
} from '@sprout/protocol/api/error-monitoring.ts'
import { Hono } from 'hono'
import { requirePlatformAdmin } from '../admin/require-platform-admin.ts'
import { findApplicationRecord } from '../applications/service.ts'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import type { Origins } from '../http/origins.ts'
import { parseJsonBody, parseQuery } from '../http/parse-request.ts'
import { requestContextOf } from '../http/request-context.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import {
  type ErrorIngest,
  errorStats,
  ingestRequest,
  listErrorGroups,
  listErrorInstances,
  rotateErrorKey,
  updateErrorGroupStatus,
} from './service.ts'

/**
 * `POST /api/{projectId}/envelope/`: authenticated by the DSN's key, not a session; mounted
 * before the product's body limit and NUL check (envelopes are binary, often compressed).
 */
export function errorIngestRoutes(ingest: ErrorIngest) {
  const app = new Hono<AppEnv>()
  app.on(['POST', 'OPTIONS'], '/api/:projectId{[0-9]+}/envelope/', (context) =>
    ingestRequest(ingest, context.req.raw, { projectId: context.req.param('projectId') }),
  )
  return app
}

/** docs/product/error-monitoring.md "Calls": members of the application's organization. */
export function errorMonitoringRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
  ingest: ErrorIngest
  /** The app's servers carry the DSN in their environment: they take the new key at once. */
  onKeyRotated?: (applicationId: string) => void
}) {
  const { db, origins } = options
  const app = new Hono<AppEnv>()
  const organization = requireOrganization(db, options.memberships)
  app.use('/api/errors/*', organization)
  app.use('/api/applications/:id/error-groups', organization)
  app.use('/api/applications/:id/error-groups/*', organization)
  app.use('/api/applications/:id/error-stats', organization)
  app.use('/api/applications/:id/error-key/*', organization)
  const contextOf = (variables: AppEnv['Variables']) => requestContextOf({ db, origins }, variables)

  app.get('/api/errors/groups', async (context) =>
    context.json(
      await listErrorGroups(contextOf(context.var), parseQuery(context, errorGroupsQuerySchema)),
    ),
  )
  app.get('/api/errors/groups/:group/errors', async (context) => {
    const { limit } = parseQuery(context, errorInstancesQuerySchema)
    return context.json(
      await listErrorInstances(contextOf(context.var), context.req.param('group'), limit),
    )
  })
  app.patch('/api/errors/groups/:group/status', async (context) => {
    const { status } = await parseJsonBody(context, updateErrorGroupStatusRequestSchema)
    return context.json(
      await updateErrorGroupStatus(contextOf(context.var), context.req.param('group'), status),
    )
  })
  app.get('/api/errors/stats', async (context) =>
    context.json(await errorStats(contextOf(context.var))),
  )

  const applicationOf = async (variables: AppEnv['Variables'], applicationId: string) =>
    (await findApplicationRecord(contextOf(variables), applicationId)).id
  app.get('/api/applications/:id/error-groups', async (context) => {
    const query = parseQuery(context, errorGroupsQuerySchema)
    const applicationId = await applicationOf(context.var, context.req.param('id'))
    return context.json(
      await listErrorGroups(contextOf(context.var), { ...query, application_id: applicationId }),
    )
  })
  app.get('/api/applications/:id/error-groups/:group/errors', async (context) => {
    const { limit } = parseQuery(context, errorInstancesQuerySchema)
    const applicationId = await applicationOf(context.var, context.req.param('id'))
    return context.json(
      await listErrorInstances(
        contextOf(context.var),
        context.req.param('group'),
        limit,
        applicationId,
      ),
    )
  })
  app.patch('/api/applications/:id/error-groups/:group', async (context) => {
    const { status } = await parseJsonBody(context, updateErrorGroupStatusRequestSchema)
    const applicationId = await applicationOf(context.var, context.req.param('id'))
    return context.json(
      await updateErrorGroupStatus(
        contextOf(context.var),
        context.req.param('group'),
        status,
        applicationId,
      ),
    )
  })
  app.get('/api/applications/:id/error-stats', async (context) => {
    const applicationId = await applicationOf(context.var, context.req.param('id'))
    return context.json(await errorStats(contextOf(context.var), applicationId))
  })
  app.post('/api/applications/:id/error-key/rotate', requirePlatformAdmin, async (context) => {
    const applicationId = context.req.param('id')
    const rotated = await rotateErrorKey(contextOf(context.var), applicationId, options.ingest)
    options.onKeyRotated?.(applicationId)
    return context.json(rotated)
  })
  return app
}
