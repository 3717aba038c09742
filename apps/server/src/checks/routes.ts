import type { Database } from '@sprout/db/database.ts'
import { CHECK_TEXTS } from '@sprout/protocol/api/checks.ts'
import { Hono } from 'hono'
import { findApplicationRecord } from '../applications/service.ts'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { Config } from '../config/config.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import type { AppEnv } from '../http/app-env.ts'
import { conflict } from '../http/app-error.ts'
import type { Origins } from '../http/origins.ts'
import { requestContextOf } from '../http/request-context.ts'
import { imagesDirOf, storeCheckScreenshot } from '../images/service.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import type { RunSecrets } from '../vault/service.ts'
import { latestCheck } from './check-store.ts'
import { runCheck } from './run-check.ts'

/** docs/product/checks.md: the app's last check, and Check now; any member of the organization. */
export function checkRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
  devboxes: DevboxRuntime
  /** ACCEPTANCE_TESTS, and where failing tests' screenshots are kept (the images' folder). */
  config: Pick<Config, 'acceptanceTests' | 'dataDir' | 'sharedDir'>
  /** The vault's side: the report never carries a secret value. */
  vault?: { runSecrets: RunSecrets }
}) {
  const { db, origins, devboxes } = options
  const app = new Hono<AppEnv>()
  app.use('/api/applications/:id/checks', requireOrganization(db, options.memberships))
  app.use('/api/applications/:id/checks/*', requireOrganization(db, options.memberships))
  const applicationOf = (variables: AppEnv['Variables'], applicationId: string) =>
    findApplicationRecord(requestContextOf({ db, origins }, variables), applicationId)

  app.get('/api/applications/:id/checks/latest', async (context) => {
    const application = await applicationOf(context.var, context.req.param('id'))
    return context.json({ check: await latestCheck(db, application.id) })
  })

  app.post('/api/applications/:id/checks', async (context) => {
    const application = await applicationOf(context.var, context.req.param('id'))
    const box = await devboxes.whenReady(application.id)
    if (!box) throw conflict(CHECK_TEXTS.noBox)
    // The box stays awake while it is checked (docs/architecture/devbox.md "Idle dev servers").
    const release = devboxes.hold(application.id)
    try {
      const redactor = (await options.vault?.runSecrets.load(application.id))?.redactor
      const owner = { organizationId: application.organizationId, applicationId: application.id }
      const report = await runCheck(
        {
          db,
          box,
          applicationId: application.id,
          storeScreenshot: (bytes) =>
            storeCheckScreenshot({ db, directory: imagesDirOf(options.config) }, owner, bytes),
        },
        {
          trigger: 'manual',
          runId: null,
          acceptanceTests: options.config.acceptanceTests,
          ...(redactor ? { redact: redactor.redactValue } : {}),
        },
      )
      return context.json(report)
    } finally {
      release()
    }
  })
  return app
}
