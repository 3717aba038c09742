import type { Database } from '@sprout/db/database.ts'
import { Hono } from 'hono'
import { findApplicationRecord } from '../../applications/service.ts'
import type { MembershipCache } from '../../auth/auth-cache.ts'
import type { AppEnv } from '../../http/app-env.ts'
import type { Origins } from '../../http/origins.ts'
import { requestContextOf } from '../../http/request-context.ts'
import { requireOrganization } from '../../organizations/require-organization.ts'
import type { DevboxRuntime } from './devbox-runtime.ts'

/** `GET /api/applications/{id}/editor-ready`: whether the builder can open the app's box. */
export function editorReadyRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
  devboxes: DevboxRuntime
}) {
  const { db, origins, devboxes } = options
  const app = new Hono<AppEnv>()
  app.use('/api/applications/:id/editor-ready', requireOrganization(db, options.memberships))
  app.get('/api/applications/:id/editor-ready', async (context) => {
    const record = await findApplicationRecord(
      requestContextOf({ db, origins }, context.var),
      context.req.param('id'),
    )
    // Reported once; the builder opened again starts it again (docs/architecture/devbox.md
    // "Starts at once").
    if (devboxes.state(record.id) === 'failed' && !devboxes.restartFailed(record.id)) {
      return context.json({ ready: false, error: 'The dev box could not be started.' })
    }
    const state = devboxes.state(record.id)
    if (state !== 'ready') {
      const position = devboxes.queuePosition(record.id)
      // A box from before a restart reopens like an idle dev server starts again: no new app.
      return context.json({
        ready: false,
        ...(devboxes.isReopening(record.id) ? { starting_preview: true } : {}),
        ...(position === undefined ? {} : { queue_position: position }),
      })
    }
    const ready = await devboxes.isEditorReady(record.id)
    return context.json(ready ? { ready } : { ready, starting_preview: true })
  })
  return app
}
