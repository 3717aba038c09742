import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { matchedRoutes } from 'hono/route'
import type { AppEnv } from '../http/app-env.ts'
import type { AuditEntry, AuditLog } from './audit-log.ts'
import { auditRequestOf } from './audit-request.ts'

type Described = Omit<AuditEntry, 'actor' | 'organizationId' | 'address' | 'userAgent'> & {
  organizationId?: string | null
}

/** What a route's success records, from its parameters and (read again, never logged) body. */
type Describe = (request: {
  param: (name: string) => string | undefined
  body: () => Promise<Record<string, unknown>>
  answer: () => Promise<Record<string, unknown>>
  context: Context<AppEnv>
}) => Promise<Described | undefined> | Described | undefined

const text = (value: unknown) => (typeof value === 'string' ? value : null)

/**
 * Sprout's own routes whose success the audit log records (docs/product/audit.md "What is
 * recorded"); better-auth's endpoints are recorded in auth/auth-audit.ts. A route added here needs
 * nothing of its own: the middleware reads its parameters and body after it answered.
 */
const auditedRoutes: Record<string, Describe> = {
  'POST /api/applications/:id/vault': async ({ param, body }) => ({
    action: 'vault.set',
    // The name only: the value never reaches the log.
    target: { type: 'vault-entry', id: param('id'), label: text((await body()).key) },
  }),
  'DELETE /api/applications/:id/vault/:key': ({ param }) => ({
    action: 'vault.deleted',
    target: { type: 'vault-entry', id: param('id'), label: param('key') },
  }),
  'DELETE /api/integrations/:service': ({ param }) => ({
    action: 'integration.removed',
    target: { type: 'integration', id: param('service'), label: param('service') },
  }),
  'GET /api/oauth/callback/:service': ({ param, context }) => {
    const location = context.res.headers.get('location') ?? ''
    const connected = new URL(location, 'http://x').searchParams.get('connected')
    if (connected !== param('service')) return undefined
    return {
      action: 'integration.connected',
      target: { type: 'integration', id: connected, label: connected },
    }
  },
  'POST /api/applications/:id/deploy': ({ param }) => ({
    action: 'app.deployed',
    target: { type: 'application', id: param('id') },
  }),
  'PATCH /api/applications/:id': async ({ param, answer }) => {
    const { visibility, allowed_emails: emails } = await answer()
    return {
      action: 'app.visibility-changed',
      target: { type: 'application', id: param('id') },
      details: {
        visibility: text(visibility),
        allowed_emails: Array.isArray(emails) ? emails.length : 0,
      },
    }
  },
  'POST /api/applications/:id/versions/:versionId/restore': ({ param }) => ({
    action: 'version.restored',
    target: { type: 'application', id: param('id') },
    details: { version: param('versionId') ?? null },
  }),
  'POST /api/applications/:id/push': ({ param }) => ({
    action: 'git.pushed',
    target: { type: 'application', id: param('id') },
  }),
  'POST /api/admin/users/:id/role': async ({ param, body }) => ({
    action: 'admin.role-changed',
    organizationId: null,
    target: { type: 'user', id: param('id') },
    details: { role: text((await body()).role) },
  }),
  'POST /api/admin/users/:id/ban': async ({ param, body }) => ({
    action: 'user.banned',
    organizationId: null,
    target: { type: 'user', id: param('id') },
    details: { reason: text((await body()).reason) },
  }),
  'POST /api/admin/users/:id/unban': ({ param }) => ({
    action: 'user.unbanned',
    organizationId: null,
    target: { type: 'user', id: param('id') },
  }),
  'POST /api/admin/users/:id/sign-out': ({ param }) => ({
    action: 'sessions.revoked',
    organizationId: null,
    target: { type: 'user', id: param('id') },
    details: { which: 'all' },
  }),
  'DELETE /api/account/sessions/:id': () => ({
    action: 'sessions.revoked',
    organizationId: null,
    details: { which: 'one' },
  }),
  'PUT /api/admin/sign-up-rules': async ({ body }) => {
    const { mode, domains } = await body()
    return {
      action: 'sign-up-rules.changed',
      organizationId: null,
      details: { mode: text(mode), domains: Array.isArray(domains) ? domains.join(', ') : null },
    }
  },
  'PUT /api/admin/single-sign-on': async ({ body }) => ({
    action: 'single-sign-on.changed',
    organizationId: null,
    details: { issuer: text((await body()).issuer), removed: false },
  }),
  'DELETE /api/admin/single-sign-on': () => ({
    action: 'single-sign-on.changed',
    organizationId: null,
    details: { removed: true },
  }),
}

async function readJsonObject(read: () => Promise<string>): Promise<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(await read())
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

/**
 * Records the success of each audited route, after it answered: its actor, organization, target,
 * the client's address and user agent. A refused or failed request records nothing here.
 */
export function auditRoutes(audit: Pick<AuditLog, 'record'>, trustProxy: boolean) {
  return createMiddleware<AppEnv>(async (context, next) => {
    await next()
    if (context.res.status >= 400) return
    // The handler's route: middlewares and the catch-all 404 are registered for every method.
    const route = matchedRoutes(context)
      .filter((matched) => matched.method !== 'ALL')
      .at(-1)
    const describe = route && auditedRoutes[`${context.req.method} ${route.path}`]
    if (!describe) return
    const described = await describe({
      param: (name) => context.req.param(name),
      // Hono keeps the body the route read, so it is read again here from memory.
      body: () => readJsonObject(() => context.req.text()),
      answer: () => readJsonObject(() => context.res.clone().text()),
      context,
    })
    if (!described) return
    const user = context.get('user') as AppEnv['Variables']['user'] | undefined
    const organization = context.get('organization') as
      | AppEnv['Variables']['organization']
      | undefined
    await audit.record({
      ...described,
      organizationId:
        described.organizationId === undefined ? organization?.id : described.organizationId,
      actor: user ? { id: user.id, email: user.email } : undefined,
      ...auditRequestOf(context, trustProxy),
    })
  })
}
