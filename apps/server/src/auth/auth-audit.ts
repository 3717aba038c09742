import type { Context } from 'hono'
import type { AuditEntry, AuditLog } from '../audit/audit-log.ts'
import { auditRequestOf } from '../audit/audit-request.ts'
import type { AppEnv, SessionUser } from '../http/app-env.ts'

type Body = Record<string, unknown>
type Described = Omit<AuditEntry, 'address' | 'userAgent'>
type Describe = (input: {
  ok: boolean
  body: Body
  answer: () => Promise<Body>
  /** Who was signed in when the request came (none for a sign-in). */
  before: Pick<SessionUser, 'id' | 'email'> | undefined
}) => Promise<Described | undefined> | Described | undefined

const text = (value: unknown) => (typeof value === 'string' ? value : null)
const userOf = (value: unknown) => {
  const user = (value as { user?: { id?: unknown; email?: unknown } } | null)?.user
  return user ? { id: text(user.id), email: text(user.email) } : undefined
}

/** Succeeded: the actor's own change, recorded with them as actor. */
const ownChange =
  (action: AuditEntry['action'], details?: (body: Body) => AuditEntry['details']): Describe =>
  ({ ok, before, body }) =>
    ok && before ? { action, actor: before, details: details?.(body) } : undefined

const organizationChange =
  (
    action: AuditEntry['action'],
    target: (body: Body) => AuditEntry['target'],
    details?: (body: Body) => AuditEntry['details'],
  ): Describe =>
  ({ ok, before, body }) =>
    ok && before
      ? {
          action,
          actor: before,
          organizationId: text(body.organizationId),
          target: target(body),
          details: details?.(body),
        }
      : undefined

/**
 * better-auth's endpoints the audit log records (docs/product/audit.md "What is recorded"),
 * by path under /api/auth: a sign-in whether it succeeded or not, the rest once they succeeded.
 */
const auditedEndpoints: Record<string, Describe> = {
  '/sign-in/email': async ({ ok, body, answer }) =>
    ok
      ? { action: 'sign-in', actor: userOf(await answer()), details: { method: 'password' } }
      : {
          action: 'sign-in.failed',
          actor: { email: text(body.email) },
          details: { method: 'password' },
        },
  '/sign-up/email': ({ ok, body }) =>
    ok ? { action: 'sign-up', actor: { email: text(body.email) } } : undefined,
  '/sign-out': ownChange('sign-out'),
  '/change-password': ownChange('password.changed', (body) => ({
    other_sessions_revoked: body.revokeOtherSessions === true,
  })),
  '/reset-password': ({ ok }) => (ok ? { action: 'password.reset' } : undefined),
  '/change-email': ownChange('email.changed', (body) => ({ new_email: text(body.newEmail) })),
  '/revoke-other-sessions': ownChange('sessions.revoked', () => ({ which: 'others' })),
  '/organization/invite-member': organizationChange(
    'member.invited',
    (body) => ({ type: 'user', label: text(body.email) }),
    (body) => ({ role: text(body.role) }),
  ),
  '/organization/leave': organizationChange('member.left', () => undefined),
}

/** Whether an endpoint is audited, so the request's body is read before better-auth takes it. */
export const isAuditedAuthPath = (path: string) =>
  path.replace(/^\/api\/auth/, '') in auditedEndpoints

/**
 * Records what a better-auth request did, once it answered (`body`: its JSON body, read before).
 * Single sign-on's callback records its sign-in with the user the new session names.
 */
export async function auditAuthRequest(input: {
  audit: Pick<AuditLog, 'record'>
  context: Context<AppEnv>
  trustProxy: boolean
  body: Body
  before: Pick<SessionUser, 'id' | 'email'> | undefined
  response: Response
  /** For single sign-on: the user of the session the answer sets, if any. */
  signedInBy?: () => Promise<Pick<SessionUser, 'id' | 'email'> | undefined>
}) {
  const path = input.context.req.path.replace(/^\/api\/auth/, '')
  const request = auditRequestOf(input.context, input.trustProxy)
  if (/^\/(sso\/)?callback\//.test(path) || path.startsWith('/oauth2/callback/')) {
    const user = await input.signedInBy?.()
    if (user) {
      await input.audit.record({
        action: 'sign-in',
        actor: user,
        details: { method: 'sso' },
        ...request,
      })
    }
    return
  }
  const describe = auditedEndpoints[path]
  if (!describe) return
  const described = await describe({
    ok: input.response.ok,
    body: input.body,
    answer: async () => {
      try {
        return (await input.response.clone().json()) as Body
      } catch {
        return {}
      }
    },
    before: input.before,
  })
  if (described) await input.audit.record({ ...described, ...request })
}
