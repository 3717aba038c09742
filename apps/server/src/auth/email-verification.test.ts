import { schema } from '@sprout/db/schema.ts'
import { desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../testing/use-app-harness.ts'
import { authRefusalTexts } from './auth-refusals.ts'
import { signUpRefusals } from './sign-up-rules.ts'

// docs/product/auth.md "Email verification" and "Invitations by mail". Mail is read from the
// outbox; its worker is tested in mail/ against a real SMTP server.
describe('email verification', () => {
  const setup = useTestApp({ SMTP_URL: 'smtp://127.0.0.1:9', REQUIRE_EMAIL_VERIFICATION: 'true' })
  const mailsTo = (email: string) =>
    setup.harness.database.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.recipient, email))
      .orderBy(desc(schema.mailOutbox.createdAt))
  const body = (email: string) =>
    JSON.stringify({ email, password: 'correct-horse-battery', name: 'Vera' })

  it('signs in only once the mailed link is opened', async () => {
    const email = 'vera@example.com'
    const signUp = await setup.harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      body: body(email),
    })
    expect(signUp.status).toBe(200)
    expect(((await signUp.json()) as { token: unknown }).token ?? null).toBeNull()
    expect(signUp.headers.getSetCookie().some((line) => line.includes('session_token='))).toBe(
      false,
    )

    const refused = await setup.harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: body(email),
    })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: string }).error).toBe(
      authRefusalTexts.EMAIL_NOT_VERIFIED,
    )

    const [latest, ...earlier] = await mailsTo(email)
    expect(latest?.kind).toBe('email-verification')
    expect(earlier.length).toBeGreaterThanOrEqual(1)
    const link = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[^\s"<]+/.exec(
      latest?.textBody ?? '',
    )?.[0]
    expect(link).toBeDefined()
    const url = new URL(link ?? '')
    const opened = await setup.harness.request(`${url.pathname}${url.search}`)
    expect(opened.status).toBe(302)
    expect(opened.headers.getSetCookie().some((line) => line.includes('session_token='))).toBe(true)

    const signedIn = await setup.harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: body(email),
    })
    expect(signedIn.status).toBe(200)
    // A forged or altered token verifies nothing.
    const forged = await setup.harness.request(
      `/api/auth/verify-email?token=${url.searchParams.get('token')}x`,
    )
    expect(forged.headers.getSetCookie().some((line) => line.includes('session_token='))).toBe(
      false,
    )
  })

  it('mails an invitation with its link', async () => {
    const owner = await setup.harness
      .signUpWith({ email: 'owner@example.com' })
      .catch(() => undefined)
    // Unverified owners have no session yet: invite as a verified one.
    expect(owner?.cookie ?? '').not.toContain('session_token=')
    await setup.harness.database.db
      .update(schema.user)
      .set({ emailVerified: true })
      .where(eq(schema.user.email, 'owner@example.com'))
    const signIn = await setup.harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: body('owner@example.com'),
    })
    const cookie = signIn.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const created = await setup.harness.request('/api/auth/organization/create', {
      method: 'POST',
      headers: { cookie },
      body: JSON.stringify({ name: 'Mailers', slug: `mailers-${Date.now()}` }),
    })
    const { id: organizationId } = (await created.json()) as { id: string }
    const invited = await setup.harness.request('/api/auth/organization/invite-member', {
      method: 'POST',
      headers: { cookie },
      body: JSON.stringify({ email: 'guest@example.com', role: 'member', organizationId }),
    })
    expect(invited.status).toBe(200)
    const { id } = (await invited.json()) as { id: string }
    const [mail] = await mailsTo('guest@example.com')
    expect(mail?.kind).toBe('invitation')
    expect(mail?.textBody).toContain(`${setup.harness.origin}/invitations/${id}`)
    expect(mail?.textBody).toContain('Mailers')
  })
})

// Issue 28: better-auth answered the rule's 403 with a made-up 'we sent a link' success.
describe('email verification with sign-up open to listed domains', () => {
  const setup = useTestApp({
    SMTP_URL: 'smtp://127.0.0.1:9',
    REQUIRE_EMAIL_VERIFICATION: 'true',
    SIGNUP_DOMAINS: 'example.org',
  })

  it("refuses another domain with the rule's text, as without verification", async () => {
    const { harness } = setup
    const signUp = (email: string) =>
      harness.request('/api/auth/sign-up/email', {
        method: 'POST',
        body: JSON.stringify({ email, password: 'correct-horse-battery', name: 'Gail' }),
      })
    const refused = await signUp('gail@gmail.com')
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: string }).error).toBe(
      signUpRefusals.domain(['example.org']),
    )
    const accepted = await signUp('gail@example.org')
    expect(accepted.status).toBe(200)
    const recipients = await harness.database.db
      .select({ recipient: schema.mailOutbox.recipient })
      .from(schema.mailOutbox)
    expect(recipients).toEqual([{ recipient: 'gail@example.org' }])
  })
})

describe('email verification without mail', () => {
  const setup = useTestApp({ REQUIRE_EMAIL_VERIFICATION: 'true' })

  it('is not required: nobody could confirm an address', async () => {
    const user = await setup.harness.signUp()
    expect(user.cookie).toContain('session_token=')
  })
})
