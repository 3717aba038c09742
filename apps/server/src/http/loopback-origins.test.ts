import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cookieHeader, createTestApp, type TestApp } from '../testing/app-harness.ts'

/** With the default PUBLIC_URL (localhost), the loopback addresses of the same server work too. */
describe('loopback aliases of the product origin', () => {
  let harness: TestApp
  let counter = 0
  beforeAll(async () => {
    harness = await createTestApp()
  })
  afterAll(() => harness.close())

  const signUpFrom = (origin: string, cookie?: string) =>
    harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { origin, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({
        email: `alias${++counter}-${Date.now()}@example.com`,
        password: 'correct-horse-battery',
        name: 'Alias',
      }),
    })

  it.each(['127.0.0.1', '[::1]'])('signs up, in and writes from http://%s', async (host) => {
    const origin = `http://${host}:${harness.port}`
    const signedUp = await signUpFrom(origin)
    expect(signedUp.status, await signedUp.clone().text()).toBe(200)
    const { user } = (await signedUp.json()) as { user: { email: string } }
    const signedIn = await harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { origin },
      body: JSON.stringify({ email: user.email, password: 'correct-horse-battery' }),
    })
    expect(signedIn.status).toBe(200)
    // A cookie-authenticated write of the product's own API from the alias passes the CSRF check.
    const created = await harness.request('/api/auth/organization/create', {
      method: 'POST',
      headers: { origin, cookie: cookieHeader(signedIn) },
      body: JSON.stringify({ name: 'From an alias', slug: `alias-${counter}-${Date.now()}` }),
    })
    expect(created.status).toBe(200)
  })

  it('tells any other origin which address to use and the PUBLIC_URL setting', async () => {
    const expected = {
      error: `This address is not trusted: open Sprout at http://localhost:${harness.port}, or set PUBLIC_URL to the address you use.`,
    }
    // A browser that was here before carries a cookie, which is when the origin matters.
    const signedUp = await signUpFrom(`http://192.168.1.20:${harness.port}`, 'sprout.theme=dark')
    expect(signedUp.status).toBe(403)
    expect(await signedUp.json()).toEqual(expected)
    const user = await harness.signUp()
    const write = await harness.request('/api/auth/organization/create', {
      method: 'POST',
      headers: { origin: 'http://evil.example', cookie: user.cookie },
      body: JSON.stringify({ name: 'Nope', slug: `nope-${Date.now()}` }),
    })
    expect(write.status).toBe(403)
    const applications = await harness.request('/api/applications', {
      method: 'POST',
      headers: { origin: 'http://evil.example', cookie: user.cookie },
      body: JSON.stringify({ initial_prompt: 'x', model: 'demo' }),
    })
    expect(applications.status).toBe(403)
    expect(await applications.json()).toEqual(expected)
  })
})
