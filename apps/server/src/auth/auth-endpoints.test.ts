import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.ts'
import { allowedAuthEndpoints } from './auth-endpoints.ts'

/**
 * better-auth's side of the route matrix: every endpoint its plugins define is either one the
 * product uses (auth-endpoints.ts) or listed here as refused — a new endpoint from an upgrade
 * fails this test until someone decides which.
 */
const refusedAuthEndpoints = [
  'POST /sign-in/social',
  'GET /callback/:id',
  'POST /callback/:id',
  'POST /get-session',
  'POST /reset-password',
  'POST /verify-password',
  'GET /verify-email',
  'POST /send-verification-email',
  'POST /change-email',
  'POST /change-password',
  'POST /update-session',
  'POST /update-user',
  'POST /delete-user',
  'POST /request-password-reset',
  'GET /reset-password/:token',
  'GET /list-sessions',
  'POST /revoke-session',
  'POST /revoke-sessions',
  'POST /revoke-other-sessions',
  'POST /link-social',
  'GET /list-accounts',
  'GET /delete-user/callback',
  'POST /unlink-account',
  'POST /refresh-token',
  'POST /get-access-token',
  'GET /account-info',
  'POST /organization/update',
  'POST /organization/delete',
  'GET /organization/get-organization',
  'GET /organization/get-full-organization',
  'GET /organization/get-active-member',
  'POST /organization/check-slug',
  'POST /organization/remove-member',
  'POST /organization/update-member-role',
  'GET /organization/list-user-invitations',
  'GET /organization/get-active-member-role',
  'POST /organization/has-permission',
  'POST /admin/set-role',
  'GET /admin/get-user',
  'POST /admin/create-user',
  'POST /admin/update-user',
  'GET /admin/list-users',
  'POST /admin/list-user-sessions',
  'POST /admin/unban-user',
  'POST /admin/ban-user',
  'POST /admin/impersonate-user',
  'POST /admin/stop-impersonating',
  'POST /admin/revoke-user-session',
  'POST /admin/revoke-user-sessions',
  'POST /admin/remove-user',
  'POST /admin/set-user-password',
  'POST /admin/has-permission',
  'GET /jwks',
  'GET /ok',
  'GET /error',
]

type Endpoint = { path?: string; options?: { method?: string | string[] } }

describe('better-auth endpoints', { timeout: 60_000 }, () => {
  let harness: TestApp
  let admin: TestUser
  let user: TestUser

  beforeAll(async () => {
    harness = await createTestApp()
    admin = await harness.signUp() // the first user is the platform admin
    user = await harness.signUp()
  })
  afterAll(() => harness.close())

  const endpoints = () =>
    Object.values(harness.auth.api as Record<string, Endpoint>).flatMap((endpoint) =>
      endpoint.path
        ? [endpoint.options?.method ?? 'GET']
            .flat()
            .filter((method) => method === 'GET' || method === 'POST')
            .map((method) => `${method} ${endpoint.path}`)
        : [],
    )

  it('classifies every endpoint better-auth defines, and lists none it does not', () => {
    const defined = endpoints()
    const unclassified = defined.filter(
      (route) => !allowedAuthEndpoints.has(route) && !refusedAuthEndpoints.includes(route),
    )
    expect(unclassified, 'add them to auth-endpoints.ts or to refusedAuthEndpoints').toEqual([])
    const stale = [...allowedAuthEndpoints, ...refusedAuthEndpoints].filter(
      (route) => !defined.includes(route),
    )
    expect(stale).toEqual([])
  })

  it('answers every refused endpoint 404 for anyone, the platform admin included', async () => {
    for (const route of refusedAuthEndpoints) {
      const [method, path] = route.split(' ') as [string, string]
      const url = `/api/auth${path.replace(/:[a-z]+/gi, 'x')}`
      for (const caller of [admin, user, undefined]) {
        const response = await harness.request(url, {
          method,
          ...(caller ? { user: caller, as: 'cookie' as const } : {}),
          ...(method === 'POST' ? { body: JSON.stringify({ userId: user.id }) } : {}),
        })
        expect(
          response.status,
          `${route} as ${caller === admin ? 'admin' : caller ? 'user' : 'anonymous'}`,
        ).toBe(404)
      }
    }
  })

  it('returns no session token in any body: not the caller’s, not another user’s', async () => {
    const session = await harness.request('/api/auth/get-session', { user: admin, as: 'cookie' })
    expect(session.status).toBe(200)
    const body = (await session.json()) as { session: Record<string, unknown> }
    expect(body.session.userId).toBe(admin.id)
    expect(body.session).not.toHaveProperty('token')
    const signIn = await harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: user.email, password: 'correct-horse-battery' }),
    })
    expect(signIn.status).toBe(200)
    expect(await signIn.json()).not.toHaveProperty('token')
    // An API client still gets its own new session once, in the bearer plugin's header.
    const bearer = signIn.headers.get('set-auth-token') ?? ''
    expect(bearer.length).toBeGreaterThan(10)
    const listed = await harness.request('/api/auth/admin/list-user-sessions', {
      method: 'POST',
      user: admin,
      body: JSON.stringify({ userId: user.id }),
    })
    expect(listed.status).toBe(404)
    const impersonated = await harness.request('/api/auth/admin/impersonate-user', {
      method: 'POST',
      user: admin,
      body: JSON.stringify({ userId: user.id }),
    })
    expect(impersonated.status).toBe(404)
    // The stream's short-lived JWT is still issued.
    const token = await harness.request('/api/auth/token', { user })
    expect(((await token.json()) as { token: string }).token.split('.')).toHaveLength(3)
  })
})
