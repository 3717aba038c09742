import type { Database } from '@sprout/db/database.ts'
import { setSecretRequestSchema } from '@sprout/protocol/api/vault.ts'
import { Hono } from 'hono'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import type { Origins } from '../http/origins.ts'
import { parseJsonBody } from '../http/parse-request.ts'
import { requestContextOf } from '../http/request-context.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import type { Vault } from './service.ts'

/** docs/product/vault.md "Calls": any member of the application's organization may use them. */
export function vaultRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
  vault: Vault
}) {
  const { db, origins, vault } = options
  const app = new Hono<AppEnv>()
  app.use('/api/applications/:id/vault', requireOrganization(db, options.memberships))
  app.use('/api/applications/:id/vault/*', requireOrganization(db, options.memberships))
  const contextOf = (variables: AppEnv['Variables']) => requestContextOf({ db, origins }, variables)

  app.get('/api/applications/:id/vault', async (context) =>
    context.json(await vault.listFor(contextOf(context.var), context.req.param('id'))),
  )

  app.post('/api/applications/:id/vault', async (context) => {
    const input = await parseJsonBody(context, setSecretRequestSchema)
    return context.json(await vault.setFor(contextOf(context.var), context.req.param('id'), input))
  })

  app.delete('/api/applications/:id/vault/:key', async (context) => {
    await vault.deleteFor(contextOf(context.var), context.req.param('id'), context.req.param('key'))
    return context.json({ success: true })
  })
  return app
}
