import { saveSingleSignOnSchema } from '@sprout/protocol/api/single-sign-on.ts'
import { Hono } from 'hono'
import type { SingleSignOn } from '../auth/single-sign-on-settings.ts'
import type { AppEnv } from '../http/app-env.ts'
import { parseJsonBody } from '../http/parse-request.ts'
import { requirePlatformAdmin } from './require-platform-admin.ts'

/** docs/product/admin.md "Access tab": the admin's single sign-on, stored over OIDC_*. */
export function singleSignOnRoutes(singleSignOn: SingleSignOn) {
  const app = new Hono<AppEnv>()
  app.use('/api/admin/single-sign-on', requirePlatformAdmin)
  app.get('/api/admin/single-sign-on', async (context) => context.json(await singleSignOn.view()))
  app.put('/api/admin/single-sign-on', async (context) => {
    const input = await parseJsonBody(context, saveSingleSignOnSchema)
    await singleSignOn.save(input)
    return context.json(await singleSignOn.view())
  })
  app.delete('/api/admin/single-sign-on', async (context) => {
    await singleSignOn.remove()
    return context.json(await singleSignOn.view())
  })
  return app
}
