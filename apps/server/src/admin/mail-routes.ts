import type { Database } from '@sprout/db/database.ts'
import { Hono } from 'hono'
import type { AppEnv } from '../http/app-env.ts'
import type { Mailer } from '../mail/mailer.ts'
import { mailOverview, retryMail } from '../mail/service.ts'
import { requirePlatformAdmin } from './require-platform-admin.ts'

/** The admin's Mail tab (docs/product/mail.md "What the admin sees"): platform admins only. */
export function adminMailRoutes({ db, mailer }: { db: Database; mailer: Mailer }) {
  const app = new Hono<AppEnv>()
  app.use('/api/admin/mail', requirePlatformAdmin)
  app.use('/api/admin/mail/*', requirePlatformAdmin)
  app.get('/api/admin/mail', async (context) => context.json(await mailOverview(db, mailer)))
  app.post('/api/admin/mail/:id/retry', async (context) =>
    context.json(await retryMail(db, mailer, context.req.param('id'))),
  )
  return app
}
