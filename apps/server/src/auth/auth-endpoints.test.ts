import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'

/** Which better-auth endpoints answer at all, per role, is in the route matrix. */
describe('better-auth endpoints', { timeout: 60_000 }, () => {
  let harness: TestApp
  let admin: TestUser
  let user: TestUser

  beforeAll(async () => {
    harness = await createTestApp()
    admin = await harness.signUpAdmin()
    user = await harness.signUp()
  })
  afterAll(() => harness.close())

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

  it('lets no platform admin impersonate or list sessions, even from inside the server', async () => {
    const headers = new Headers({ authorization: `Bearer ${admin.token}` })
    const body = { userId: user.id }
    await expect(harness.auth.api.impersonateUser({ headers, body })).rejects.toMatchObject({
      statusCode: 403,
    })
    await expect(harness.auth.api.listUserSessions({ headers, body })).rejects.toMatchObject({
      statusCode: 403,
    })
  })
})
