import { schema } from '@sprout/db/schema.ts'
import { desc, eq, like } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestUser } from '../testing/app-harness.ts'
import { useTestApp, withTestApp } from '../testing/use-app-harness.ts'

// docs/product/auth.md "Password reset". The mail is read from the outbox: the worker that
// sends it is tested in mail/ against a real SMTP server.
describe('password reset', () => {
  // Nothing listens on port 9: the outbox keeps every message, which is all these tests read.
  const setup = useTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' })
  const request = (email: string) =>
    setup.harness.request('/api/auth/request-password-reset', {
      method: 'POST',
      body: JSON.stringify({ email }),
    })
  const reset = (token: string, newPassword = 'a-brand-new-password') =>
    setup.harness.request('/api/auth/reset-password', {
      method: 'POST',
      body: JSON.stringify({ token, newPassword }),
    })
  const signIn = (email: string, password: string) =>
    setup.harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    })
  const isSignedIn = async (user: TestUser) =>
    (await setup.harness.request('/api/admin/status', { user, as: 'cookie' })).status === 200
  const lastResetLink = async (email: string) => {
    const [mail] = await setup.harness.database.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.recipient, email))
      .orderBy(desc(schema.mailOutbox.createdAt))
      .limit(1)
    const url = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail?.textBody ?? '')?.[0]
    if (!url) throw new Error(`no reset link mailed to ${email}`)
    return new URL(url)
  }

  it('mails a single-use link that sets a new password and ends every session', async () => {
    const user = await setup.harness.signUp()
    const second = await signIn(user.email, 'correct-horse-battery')
    expect(second.status).toBe(200)
    expect((await request(user.email)).status).toBe(200)
    const link = await lastResetLink(user.email)
    expect(link.origin).toBe(setup.harness.origin)
    const token = link.searchParams.get('token') ?? ''

    expect((await reset(token, 'short')).status).toBe(400)
    expect((await reset(token)).status).toBe(200)
    expect(await isSignedIn(user)).toBe(false)
    const session = await setup.harness.request('/api/auth/get-session', {
      user,
      as: 'cookie',
    })
    expect(await session.json()).toBeNull()
    expect((await signIn(user.email, 'correct-horse-battery')).status).toBe(401)
    expect((await signIn(user.email, 'a-brand-new-password')).status).toBe(200)

    // Used once: the same token changes nothing again.
    const replay = await reset(token, 'an-attackers-password')
    expect(replay.status).toBe(400)
    expect((await signIn(user.email, 'an-attackers-password')).status).toBe(401)
  })

  it('refuses an expired link, and a token only ever resets its own user', async () => {
    const alice = await setup.harness.signUp()
    const bob = await setup.harness.signUp()
    await request(alice.email)
    await request(bob.email)
    const aliceToken = (await lastResetLink(alice.email)).searchParams.get('token') ?? ''
    const bobToken = (await lastResetLink(bob.email)).searchParams.get('token') ?? ''
    await setup.harness.database.db
      .update(schema.verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.verification.identifier, `reset-password:${aliceToken}`))
    expect((await reset(aliceToken)).status).toBe(400)
    expect((await signIn(alice.email, 'correct-horse-battery')).status).toBe(200)

    // Bob's token, sent with Alice's address alongside, still resets Bob only.
    const mixed = await setup.harness.request('/api/auth/reset-password', {
      method: 'POST',
      body: JSON.stringify({
        token: bobToken,
        newPassword: 'bobs-new-password',
        email: alice.email,
      }),
    })
    expect(mixed.status).toBe(200)
    expect((await signIn(alice.email, 'correct-horse-battery')).status).toBe(200)
    expect((await signIn(bob.email, 'bobs-new-password')).status).toBe(200)
    for (const token of ['', 'x'.repeat(300), 'nope', `${bobToken}\u0000`]) {
      expect((await reset(token)).status, JSON.stringify(token)).toBeGreaterThanOrEqual(400)
    }
  })

  it('answers alike, in text and in time, whether or not the address has an account', async () => {
    const user = await setup.harness.signUp()
    const known = await request(user.email)
    const unknown = await request('nobody-at-all@example.com')
    expect(unknown.status).toBe(known.status)
    expect(await unknown.json()).toEqual(await known.json())
    // Each answer waits for the same floor, so the two kinds overlap. Compared by their fastest of
    // seven: a loaded machine delays single answers by more than the gap this looks for, but not
    // every one of seven.
    const timeOf = async (email: string) => {
      const started = performance.now()
      await request(email)
      return performance.now() - started
    }
    const knownTimes: number[] = []
    const unknownTimes: number[] = []
    for (let round = 0; round < 7; round += 1) {
      knownTimes.push(await timeOf(user.email))
      unknownTimes.push(await timeOf(`nobody-${round}@example.com`))
    }
    expect(Math.min(...knownTimes, ...unknownTimes)).toBeGreaterThanOrEqual(245)
    expect(Math.abs(Math.min(...knownTimes) - Math.min(...unknownTimes))).toBeLessThan(40)
    const mails = await setup.harness.database.db
      .select({ id: schema.mailOutbox.id })
      .from(schema.mailOutbox)
      .where(like(schema.mailOutbox.recipient, 'nobody%'))
    expect(mails).toEqual([])
  })

  it('keeps a name with line breaks out of the mail headers', async () => {
    const email = `eve-${Date.now()}@example.com`
    const response = await setup.harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email,
        password: 'correct-horse-battery',
        name: 'Eve\r\nBcc: victim@example.com',
      }),
    })
    expect(response.status).toBe(200)
    await request(email)
    const [mail] = await setup.harness.database.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.recipient, email))
    expect(mail?.subject).not.toMatch(/[\r\n]/)
  })
})

describe('password reset without mail', () => {
  it('answers the same, mails nothing, and the screens learn mail is off', async () => {
    await withTestApp({}, async (harness) => {
      const user = await harness.signUp()
      const response = await harness.request('/api/auth/request-password-reset', {
        method: 'POST',
        body: JSON.stringify({ email: user.email }),
      })
      expect(response.status).toBe(200)
      expect(await harness.database.db.select().from(schema.mailOutbox)).toEqual([])
      const options = await (await harness.request('/api/sign-in-options')).json()
      expect(options).toMatchObject({ mail: false, signUp: 'open', singleSignOn: null })
    })
  })
})
