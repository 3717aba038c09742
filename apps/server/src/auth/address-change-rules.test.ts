import { schema } from '@sprout/db/schema.ts'
import { desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestApp, TestUser } from '../testing/app-harness.ts'
import { useTestApp } from '../testing/use-app-harness.ts'
import { signUpRefusals } from './sign-up-rules.ts'

// Issue 29, item 13: an unconfirmed mover@corp.example moved at once to mover@evil.example, out
// of the domains the sign-up rules allow. Every address change is held to the rules now
// (docs/product/auth.md "Sign-up rules"), refused with the rule's own text.
const changeEmail = (harness: TestApp, user: TestUser, newEmail: string) =>
  harness.request('/api/auth/change-email', {
    method: 'POST',
    user,
    as: 'cookie',
    body: JSON.stringify({ newEmail, callbackURL: '/account' }),
  })

const emailOf = async (harness: TestApp, user: TestUser) => {
  const [row] = await harness.database.db
    .select({ email: schema.user.email })
    .from(schema.user)
    .where(eq(schema.user.id, user.id))
  return row?.email
}

describe('address changes under the sign-up rules', () => {
  const setup = useTestApp({ SIGNUP_DOMAINS: 'corp.example' })

  it('refuses an unconfirmed address a domain the rules do not allow, and changes nothing', async () => {
    const mover = await setup.harness.signUpWith({ email: 'mover@corp.example' })
    for (const target of ['mover@evil.example', 'Mover@EVIL.example', 'mover@corp.example.evil']) {
      const refused = await changeEmail(setup.harness, mover, target)
      expect(refused.status, target).toBe(403)
      expect(((await refused.json()) as { error: string }).error).toBe(
        signUpRefusals.domain(['corp.example']),
      )
    }
    expect(await emailOf(setup.harness, mover)).toBe('mover@corp.example')

    const allowed = await changeEmail(setup.harness, mover, 'moved@corp.example')
    expect(allowed.status).toBe(200)
    expect(await emailOf(setup.harness, mover)).toBe('moved@corp.example')
  })
})

describe('a confirmed address change whose link is opened after the rules narrowed', () => {
  const setup = useTestApp({ SIGNUP_DOMAINS: 'corp.example', SMTP_URL: 'smtp://127.0.0.1:9' })

  it('keeps the old address and says why', async () => {
    const { harness } = setup
    const user = await harness.signUpWith({ email: 'settled@corp.example' })
    await harness.database.db
      .update(schema.user)
      .set({ emailVerified: true })
      .where(eq(schema.user.id, user.id))
    expect((await changeEmail(harness, user, 'settled@evil.example')).status).toBe(403)

    expect((await changeEmail(harness, user, 'new@corp.example')).status).toBe(200)
    const [mail] = await harness.database.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.recipient, 'new@corp.example'))
      .orderBy(desc(schema.mailOutbox.createdAt))
    const link = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[^\s"<]+/.exec(
      mail?.textBody ?? '',
    )?.[0]
    expect(link).toBeDefined()
    await harness.created.signUpRules.update({ mode: 'open', domains: ['other.example'] })
    const url = new URL(link ?? '')
    const opened = await harness.request(`${url.pathname}${url.search}`)
    expect(opened.status).toBe(403)
    expect(((await opened.json()) as { error: string }).error).toBe(
      signUpRefusals.domain(['other.example']),
    )
    expect(await emailOf(harness, user)).toBe('settled@corp.example')
  })
})
