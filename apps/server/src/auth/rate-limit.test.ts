import { schema } from '@sprout/db/schema.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestApp, TestUser } from '../testing/app-harness.ts'
import { useTestApp } from '../testing/use-app-harness.ts'

// Issue 29, item 12 (decision 004): 200 guesses at one account from 20 addresses all went through,
// change-password answered every guess of the current password, and send-verification-email sent
// 30 mails in a row to one address. The limits here are small; config.test.ts checks the defaults.
describe('rate limits per account', () => {
  const setup = useTestApp({
    TRUST_PROXY: 'true',
    SMTP_URL: 'smtp://127.0.0.1:9',
    AUTH_RATE_LIMIT: '2/60',
    AUTH_ACCOUNT_RATE_LIMIT: '3/60',
    AUTH_MAIL_RATE_LIMIT: '2/60',
  })
  let addressCounter = 0
  const newAddress = () => `10.29.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`

  const post = (path: string, body: unknown, address: string, user?: TestUser) =>
    setup.harness.request(`/api/auth${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'x-forwarded-for': address },
      ...(user ? { user, as: 'cookie' as const } : {}),
    })
  const signIn = (email: string, password: string, address: string) =>
    post('/sign-in/email', { email, password }, address)

  const expectTooMany = async (response: Response, text: string) => {
    expect(response.status).toBe(429)
    const retryAfter = Number(response.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(((await response.json()) as { error: string }).error).toBe(
      `${text} Please wait ${retryAfter} seconds and try again.`,
    )
  }

  it('counts failed sign-ins to one account from every address, and lets its owner in', async () => {
    const user = await signUpFrom(setup.harness, newAddress())
    const home = newAddress()
    expect((await signIn(user.email, 'correct-horse-battery', home)).status).toBe(200)

    // Side by side, so a limiter that counted only finished attempts would let them all through.
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        signIn(index % 2 ? user.email : user.email.toUpperCase(), `guess-${index}-x`, newAddress()),
      ),
    )
    expect(guesses.filter((response) => response.status === 401)).toHaveLength(3)
    const refused = guesses.filter((response) => response.status === 429)
    expect(refused).toHaveLength(17)
    await expectTooMany(refused[0] as Response, 'Too many failed sign-ins to this account.')

    await expectTooMany(
      await signIn(user.email, 'correct-horse-battery', newAddress()),
      'Too many failed sign-ins to this account.',
    )
    // The address its owner signed in from before still may (decision 004).
    expect((await signIn(user.email, 'correct-horse-battery', home)).status).toBe(200)
    const other = await signUpFrom(setup.harness, newAddress())
    expect((await signIn(other.email, 'correct-horse-battery', newAddress())).status).toBe(200)
  })

  it('limits guesses of the current password per account and per address', async () => {
    const user = await signUpFrom(setup.harness, newAddress())
    const change = (currentPassword: string, address: string, who = user) =>
      post('/change-password', { currentPassword, newPassword: 'new-horse-battery' }, address, who)
    const statuses = []
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push((await change(`wrong-${attempt}-pass`, newAddress())).status)
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429])
    await expectTooMany(
      await change('correct-horse-battery', newAddress()),
      'Too many wrong current passwords for this account.',
    )

    const other = await signUpFrom(setup.harness, newAddress())
    const address = newAddress()
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await change(`wrong-${attempt}-pass`, address, other)).status).toBe(400)
    }
    await expectTooMany(await change('wrong-2-pass', address, other), 'Too many attempts.')
  })

  it('sends a limited number of verification mails to one address, signed in or not', async () => {
    const user = await signUpFrom(setup.harness, newAddress())
    const mailsTo = async (email: string) =>
      (
        await setup.harness.database.db
          .select()
          .from(schema.mailOutbox)
          .where(eq(schema.mailOutbox.recipient, email))
      ).filter((mail) => mail.kind === 'email-verification')
    const before = (await mailsTo(user.email)).length
    const resend = (address: string, email: string | undefined = user.email) =>
      post('/send-verification-email', email ? { email } : {}, address)
    expect((await resend(newAddress())).status).toBe(200)
    expect((await resend(newAddress(), user.email.toUpperCase())).status).toBe(200)
    await expectTooMany(await resend(newAddress()), 'Too many emails to this address.')
    const signedIn = await post('/send-verification-email', {}, newAddress(), user)
    await expectTooMany(signedIn, 'Too many emails to this address.')
    expect((await mailsTo(user.email)).length - before).toBe(2)

    const address = newAddress()
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await resend(address, `nobody-${attempt}@example.com`)).status).toBe(200)
    }
    await expectTooMany(await resend(address, 'nobody-2@example.com'), 'Too many attempts.')
  })
})

async function signUpFrom(harness: TestApp, address: string) {
  return harness.signUpWith({
    email: `limited-${crypto.randomUUID().slice(0, 8)}@example.com`,
    headers: { 'x-forwarded-for': address },
  })
}
