import { describe, expect, it } from 'vitest'
import { useTestApp, withTestApp } from '../testing/use-app-harness.ts'

describe('accounts', () => {
  const setup = useTestApp()

  it('gives every new user a personal organization', async () => {
    const user = await setup.harness.signUp()
    const response = await setup.harness.request('/api/organizations?is_personal=true', { user })
    expect(response.status).toBe(200)
    const { id } = (await response.json()) as { id: string }
    expect(id).toMatch(/[0-9a-f-]{36}/)
  })

  it('answers unknown email and wrong password the same way', async () => {
    const user = await setup.harness.signUp()
    const attempt = (email: string) =>
      setup.harness.request('/api/auth/sign-in/email', {
        method: 'POST',
        body: JSON.stringify({ email, password: 'wrong-password-123' }),
      })
    const wrongPassword = await attempt(user.email)
    const unknownEmail = await attempt('nobody-here@example.com')
    expect(wrongPassword.status).toBe(401)
    expect(unknownEmail.status).toBe(wrongPassword.status)
    expect(await unknownEmail.json()).toEqual(await wrongPassword.json())
  })

  it('sets HttpOnly session cookies', async () => {
    const response = await setup.harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email: 'cookies@example.com',
        password: 'correct-horse-battery',
        name: 'c',
      }),
    })
    const sessionCookie = response.headers
      .getSetCookie()
      .find((cookie) => cookie.includes('session_token'))
    expect(sessionCookie).toBeDefined()
    expect(sessionCookie).toMatch(/HttpOnly/i)
    expect(sessionCookie).toMatch(/SameSite=Lax/i)
  })

  it('revokes the session on the server at sign-out', async () => {
    const user = await setup.harness.signUp()
    expect((await setup.harness.request('/api/admin/status', { user })).status).toBe(200)
    const signOut = await setup.harness.request('/api/auth/sign-out', {
      method: 'POST',
      user,
      as: 'cookie',
    })
    expect(signOut.status).toBe(200)
    expect((await setup.harness.request('/api/admin/status', { user })).status).toBe(401)
    expect((await setup.harness.request('/api/admin/status', { user, as: 'cookie' })).status).toBe(
      401,
    )
  })

  it('accepts the session cookie as well as a bearer token', async () => {
    const user = await setup.harness.signUp()
    expect((await setup.harness.request('/api/admin/status', { user, as: 'cookie' })).status).toBe(
      200,
    )
    expect((await setup.harness.request('/api/admin/status', { user, as: 'bearer' })).status).toBe(
      200,
    )
    const anonymous = await setup.harness.request('/api/admin/status')
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toEqual({ error: 'Authentication required' })
  })

  it('refuses a cookie-authenticated write from another origin', async () => {
    const user = await setup.harness.signUp()
    const response = await setup.harness.request('/api/organizations', {
      method: 'POST',
      user,
      as: 'cookie',
      headers: { origin: 'http://evil.example' },
      body: '{}',
    })
    expect(response.status).toBe(403)
  })
})

describe('admin emails', () => {
  it('makes listed emails platform admins', async () => {
    await withTestApp({ ADMIN_EMAILS: 'Boss@Example.com' }, async (harness) => {
      await harness.signUp('first@example.com')
      const boss = await harness.signUp('boss@example.com')
      const response = await harness.request('/api/admin/status', { user: boss })
      expect(await response.json()).toEqual({ isAdmin: true })
    })
  })
})

describe('https cookies', () => {
  it('uses __Secure- cookies under an https PUBLIC_URL', async () => {
    await withTestApp({ PUBLIC_URL: 'https://sprout.example.com' }, async (harness) => {
      const response = await harness.request('/api/auth/sign-up/email', {
        method: 'POST',
        body: JSON.stringify({
          email: 'secure@example.com',
          password: 'correct-horse-battery',
          name: 's',
        }),
      })
      expect(response.status).toBe(200)
      const cookies = response.headers.getSetCookie()
      const session = cookies.find((cookie) => cookie.includes('session_token'))
      expect(session).toMatch(/^__Secure-sprout\.session_token=/)
      expect(session).toMatch(/Secure/)
      expect(session).toMatch(/HttpOnly/i)
    })
  })
})

describe('rate limiting', () => {
  it('answers 429 after too many sign-in attempts', async () => {
    await withTestApp({ AUTH_RATE_LIMIT: '3/60' }, async (harness) => {
      const statuses: number[] = []
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await harness.request('/api/auth/sign-in/email', {
          method: 'POST',
          body: JSON.stringify({ email: 'x@example.com', password: 'whatever-123' }),
        })
        statuses.push(response.status)
        if (response.status === 429) {
          expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
          expect(((await response.json()) as { error: string }).error).toMatch(/Too many attempts/)
        }
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429])
    })
  })
})
