import { poolCycleRequestSchema } from '@sprout/protocol/api/applications.ts'
import { Hono } from 'hono'
import { requirePlatformAdmin } from '../../admin/require-platform-admin.ts'
import type { AppEnv } from '../../http/app-env.ts'
import { parseJsonBody } from '../../http/parse-request.ts'
import type { DevboxRuntime } from '../runtime/devbox-runtime.ts'

export function poolRoutes(devboxes: DevboxRuntime) {
  const app = new Hono<AppEnv>()
  app.use('/api/admin/pool/*', requirePlatformAdmin)
  app.get('/api/admin/pool/stats', (context) =>
    context.json({ ...devboxes.pool.stats(), confinement: devboxes.confinement }),
  )
  app.post('/api/admin/pool/cycle', async (context) => {
    const { pack_type: packType } = await parseJsonBody(context, poolCycleRequestSchema)
    void devboxes.pool.cycle(packType).catch((error: unknown) => {
      console.error('[pool] cycle failed:', error)
    })
    return context.json({ success: true })
  })
  return app
}
