import type { Database } from '@sprout/db/database.ts'
import { Hono } from 'hono'
import { requirePlatformAdmin } from '../../admin/require-platform-admin.ts'
import type { MembershipCache } from '../../auth/auth-cache.ts'
import type { AppEnv } from '../../http/app-env.ts'
import type { Origins } from '../../http/origins.ts'
import { requestContextOf } from '../../http/request-context.ts'
import { requireOrganization } from '../../organizations/require-organization.ts'
import type { DevboxRuntime } from '../runtime/devbox-runtime.ts'
import { deployApplication } from './service.ts'

/** `POST /api/applications/{id}/deploy` (docs/product/deploys.md), platform admins only. */
export function deployRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
  devboxes: DevboxRuntime
  deploysDir: string
}) {
  const { db, origins, devboxes, deploysDir } = options
  const app = new Hono<AppEnv>()
  app.use('/api/applications/:id/deploy', requireOrganization(db, options.memberships))
  app.post('/api/applications/:id/deploy', requirePlatformAdmin, async (context) => {
    const deployContext = {
      ...requestContextOf({ db, origins }, context.var),
      devboxes,
      deploysDir,
    }
    return context.json(await deployApplication(deployContext, context.req.param('id')))
  })
  return app
}
