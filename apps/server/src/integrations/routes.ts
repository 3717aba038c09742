import type { Database } from '@sprout/db/database.ts'
import {
  createOAuthStateRequestSchema,
  INTEGRATION_PRESETS,
  saveIntegrationRequestSchema,
} from '@sprout/protocol/api/integrations.ts'
import { Hono } from 'hono'
import { requirePlatformAdmin } from '../admin/require-platform-admin.ts'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import { parseJsonBody } from '../http/parse-request.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import { createDefinition, listDefinitions, updateDefinition } from './definitions.ts'
import {
  completeAuthorization,
  disconnect,
  freshAccessToken,
  type IntegrationDeps,
  listIntegrations,
  startAuthorization,
} from './service.ts'

/** docs/product/admin.md "Integrations tab": platform admins only. */
export function adminIntegrationRoutes(deps: IntegrationDeps) {
  const app = new Hono<AppEnv>()
  app.use('/api/admin/integrations', requirePlatformAdmin)
  app.use('/api/admin/integrations/*', requirePlatformAdmin)
  app.get('/api/admin/integrations', async (context) => context.json(await listDefinitions(deps)))
  app.get('/api/admin/integrations/presets', (context) => context.json(INTEGRATION_PRESETS))
  app.post('/api/admin/integrations', async (context) => {
    const input = await parseJsonBody(context, saveIntegrationRequestSchema)
    return context.json(await createDefinition(deps, input), 201)
  })
  app.put('/api/admin/integrations/:service', async (context) => {
    const input = await parseJsonBody(context, saveIntegrationRequestSchema)
    return context.json(await updateDefinition(deps, context.req.param('service'), input))
  })
  return app
}

/** docs/product/integrations.md "Calls": any member, inside their organization. */
export function integrationRoutes(
  deps: IntegrationDeps & { memberships: MembershipCache; db: Database },
) {
  const app = new Hono<AppEnv>()
  const inOrganization = requireOrganization(deps.db, deps.memberships)
  app.use('/api/integrations', inOrganization)
  app.use('/api/integrations/*', inOrganization)
  app.use('/api/oauth/state', inOrganization)
  app.get('/api/integrations', async (context) =>
    context.json(await listIntegrations(deps, context.var.organization.id)),
  )
  app.post('/api/oauth/state', async (context) => {
    const { integration_name } = await parseJsonBody(context, createOAuthStateRequestSchema)
    const caller = { userId: context.var.user.id, organizationId: context.var.organization.id }
    return context.json(await startAuthorization(deps, caller, integration_name))
  })
  app.get('/api/integrations/:service/token', async (context) => {
    const service = context.req.param('service')
    const token = await freshAccessToken(deps, context.var.organization.id, service)
    return context.json({
      access_token: token.accessToken,
      expires_at: token.expiresAt?.toISOString() ?? null,
    })
  })
  app.delete('/api/integrations/:service', async (context) => {
    await disconnect(deps, context.var.organization.id, context.req.param('service'))
    return context.json({ success: true })
  })
  return app
}

/**
 * The redirect URI: a top-level navigation from the authorization server, so it answers with a
 * redirect to /settings rather than JSON, signed in or not (the state names who may finish it).
 */
export function oauthCallbackRoutes(
  deps: IntegrationDeps,
  sessionUserId: (headers: Headers) => Promise<string | undefined>,
) {
  return new Hono<AppEnv>().get('/api/oauth/callback/:service', async (context) => {
    const query = new URL(context.req.url).searchParams
    const userId = await sessionUserId(context.req.raw.headers)
    const location = await completeAuthorization(deps, context.req.param('service'), query, userId)
    context.header('cache-control', 'no-store')
    context.header('referrer-policy', 'no-referrer')
    return context.redirect(location, 302)
  })
}
