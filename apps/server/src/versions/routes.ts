import type { Database } from '@sprout/db/database.ts'
import { restoreVersionRequestSchema } from '@sprout/protocol/api/versions.ts'
import { Hono } from 'hono'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import type { AppEnv } from '../http/app-env.ts'
import type { Origins } from '../http/origins.ts'
import { parseOptionalJsonBody, parseQuery } from '../http/parse-request.ts'
import { requestContextOf } from '../http/request-context.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import {
  diffApplicationVersion,
  listApplicationVersions,
  restoreApplicationVersion,
  versionsQuerySchema,
} from './history.ts'

/** docs/product/versions.md "History", "Diffs", "Restore": any member of the organization. */
export function versionRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
  devboxes: DevboxRuntime
}) {
  const { db, origins, devboxes } = options
  const app = new Hono<AppEnv>()
  app.use('/api/applications/:id/versions', requireOrganization(db, options.memberships))
  app.use('/api/applications/:id/versions/*', requireOrganization(db, options.memberships))
  const contextOf = (variables: AppEnv['Variables']) => ({
    ...requestContextOf({ db, origins }, variables),
    devboxes,
  })

  app.get('/api/applications/:id/versions', async (context) => {
    const query = parseQuery(context, versionsQuerySchema)
    const page = await listApplicationVersions(
      contextOf(context.var),
      context.req.param('id'),
      query.cursor,
    )
    return context.json(page)
  })

  app.get('/api/applications/:id/versions/:versionId/diff', async (context) => {
    const { id, versionId } = context.req.param()
    return context.json(await diffApplicationVersion(contextOf(context.var), id, versionId))
  })

  app.post('/api/applications/:id/versions/:versionId/restore', async (context) => {
    const input = await parseOptionalJsonBody(context, restoreVersionRequestSchema)
    const { id, versionId } = context.req.param()
    const version = await restoreApplicationVersion(contextOf(context.var), id, versionId, input)
    return context.json({ version })
  })
  return app
}
