import { schema } from '@sprout/db/schema.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestUser } from '../testing/app-harness.ts'
import { useTestApp } from '../testing/use-app-harness.ts'
import { setupCodeHeader } from './account-hooks.ts'
import { setupLinkTexts } from './setup-link.ts'

// docs/product/auth.md "The first admin": a fresh install belongs to whoever holds the link the
// start printed, not to whoever signs up first.
describe('the first admin', () => {
  const setup = useTestApp({ SIGNUP: 'closed' })
  const isAdmin = async (user: TestUser) => {
    const response = await setup.harness.request('/api/admin/status', { user })
    return ((await response.json()) as { isAdmin: boolean }).isAdmin
  }
  const claim = (user: TestUser, code: string) =>
    setup.harness.request('/api/setup', { method: 'POST', user, body: JSON.stringify({ code }) })
  const codeOf = (url: string | undefined) =>
    new URL(url ?? 'http://x/').searchParams.get('code') ?? ''

  it('makes nobody admin by signing up first, and the setup link makes its holder admin once', async () => {
    const { harness } = setup
    const url = await harness.created.setupLink.prepare(harness.origin)
    expect(url).toMatch(/^http:\/\/localhost:\d+\/setup\?code=[\w-]{32}$/)
    const code = codeOf(url)

    // Sign-up is closed: without the link nobody gets in, with it the owner does.
    const refused = await harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email: 'first@example.com',
        password: 'correct-horse-battery',
        name: 'F',
      }),
    })
    expect(refused.status).toBe(403)
    const wrongCode = await harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { [setupCodeHeader]: 'not-the-code' },
      body: JSON.stringify({
        email: 'first@example.com',
        password: 'correct-horse-battery',
        name: 'F',
      }),
    })
    expect(wrongCode.status).toBe(403)
    expect(await (await harness.request(`/api/setup?code=${code}`)).json()).toEqual({
      adminExists: false,
      valid: true,
    })
    const owner = await harness.signUpWith({
      email: 'owner@example.com',
      headers: { [setupCodeHeader]: code },
    })
    expect(await isAdmin(owner)).toBe(true)

    // Spent: neither the link nor a new start hands the installation to anybody else.
    expect(await (await harness.request(`/api/setup?code=${code}`)).json()).toEqual({
      adminExists: true,
      valid: false,
    })
    const again = await claim(owner, code)
    expect(again.status).toBe(403)
    expect(await again.json()).toEqual({ error: setupLinkTexts.adminExists })
    expect(await harness.created.setupLink.prepare(harness.origin)).toBeUndefined()
    const late = await harness
      .signUpWith({ email: 'late@example.com', headers: { [setupCodeHeader]: code } })
      .catch((error: Error) => error)
    expect(late).toBeInstanceOf(Error)
  })
})

describe('the setup link, for an account already signed in', () => {
  const setup = useTestApp({})

  it("makes it the admin: 'Make {email} the admin', once", async () => {
    const { harness } = setup
    const user = await harness.signUp()
    const url = await harness.created.setupLink.prepare(harness.origin)
    const code = new URL(url ?? 'http://x/').searchParams.get('code') ?? ''
    const claimAs = (body: string) => harness.request('/api/setup', { method: 'POST', user, body })
    const guess = await claimAs(JSON.stringify({ code: `${code}x` }))
    expect(guess.status).toBe(403)
    expect(await guess.json()).toEqual({ error: setupLinkTexts.invalid })

    const body = JSON.stringify({ code })
    const [first, second] = await Promise.all([claimAs(body), claimAs(body)])
    expect([first.status, second.status].sort()).toEqual([200, 403])
    const status = await harness.request('/api/admin/status', { user })
    expect(await status.json()).toEqual({ isAdmin: true })
  })

  it('answers a claim without a session, or with a malformed body, with a 4xx', async () => {
    const { harness } = setup
    const anonymous = await harness.request('/api/setup', {
      method: 'POST',
      body: '{"code":"x"}',
    })
    expect(anonymous.status).toBe(401)
    const user = await harness.signUp()
    const bodies = [
      '{}',
      '{"code":""}',
      `{"code":"${'x'.repeat(500)}"}`,
      '[1]',
      '{"code":"x","y":1}',
    ]
    for (const body of bodies) {
      const response = await harness.request('/api/setup', { method: 'POST', user, body })
      expect(response.status, body).toBe(400)
    }
  })
})

// Issue 28: with REQUIRE_EMAIL_VERIFICATION the sign-up has no session to claim the link with,
// so the account was left an ordinary one and the link stayed open.
describe('the first admin, with email verification', () => {
  const setup = useTestApp({
    SIGNUP: 'closed',
    SMTP_URL: 'smtp://127.0.0.1:9',
    REQUIRE_EMAIL_VERIFICATION: 'true',
  })

  it('is the admin once the mailed link is opened, and the setup link is spent', async () => {
    const { harness } = setup
    const url = await harness.created.setupLink.prepare(harness.origin)
    const code = new URL(url ?? 'http://x/').searchParams.get('code') ?? ''
    const owner = await harness.signUpWith({
      email: 'owner@example.com',
      headers: { [setupCodeHeader]: code },
    })
    expect(owner.cookie).not.toContain('session_token=')
    expect(await (await harness.request(`/api/setup?code=${code}`)).json()).toEqual({
      adminExists: true,
      valid: false,
    })

    const [mail] = await harness.database.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.recipient, 'owner@example.com'))
    const link = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[^\s"<]+/.exec(
      mail?.textBody ?? '',
    )?.[0]
    const verified = new URL(link ?? 'http://x/')
    const opened = await harness.request(`${verified.pathname}${verified.search}`)
    expect(opened.status).toBe(302)
    const cookie = opened.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const status = await harness.request('/api/admin/status', { headers: { cookie } })
    expect(await status.json()).toEqual({ isAdmin: true })
  })
})
