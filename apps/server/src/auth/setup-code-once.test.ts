import { schema } from '@sprout/db/schema.ts'
import { eq, inArray } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../testing/use-app-harness.ts'
import { setupCodeHeader } from './account-hooks.ts'
import { setupLinkTexts } from './setup-link.ts'

// Issue 29: the setup code let any number of sign-ups past the sign-up rules until it was
// claimed, and kept doing so once an admin existed another way. The code admits one
// sign-up, the admin's; every other use is refused and makes no account (docs/product/auth.md
// "The first admin"; decision 027). Runs on PGlite and PostgreSQL.
describe('the setup code admits exactly one sign-up', { timeout: 60_000 }, () => {
  const setup = useTestApp({ SIGNUP: 'closed' })
  const listed = useTestApp({ SIGNUP: 'closed', ADMIN_EMAILS: 'root@example.com' })

  const signUp = (harness: typeof setup.harness, email: string, code: string) =>
    harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { [setupCodeHeader]: code },
      body: JSON.stringify({ email, password: 'correct-horse-battery', name: 'N' }),
    })
  const codeOf = (url: string | undefined) =>
    new URL(url ?? 'http://x/').searchParams.get('code') ?? ''

  it('of sign-ups side by side, makes one account, the admin, and refuses the rest', async () => {
    const { harness } = setup
    const code = codeOf(await harness.created.setupLink.prepare(harness.origin))
    const emails = Array.from({ length: 6 }, (_, index) => `racer${index}@example.com`)
    const answers = await Promise.all(emails.map((email) => signUp(harness, email, code)))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 403)).toHaveLength(emails.length - 1)
    for (const answer of answers.filter((each) => each.status === 403)) {
      expect([setupLinkTexts.invalid, setupLinkTexts.adminExists]).toContain(
        ((await answer.json()) as { error: string }).error,
      )
    }
    const accounts = await harness.database.db
      .select({ email: schema.user.email, role: schema.user.role })
      .from(schema.user)
      .where(inArray(schema.user.email, emails))
    expect(accounts).toHaveLength(1)
    expect(accounts[0]?.role).toBe('admin')

    // Used: a later sign-up with it is refused, not let in under the rules.
    const late = await signUp(harness, 'late@example.com', code)
    expect(late.status).toBe(403)
    expect(await late.json()).toMatchObject({ error: setupLinkTexts.adminExists })
    const lateRows = await harness.database.db
      .select()
      .from(schema.user)
      .where(eq(schema.user.email, 'late@example.com'))
    expect(lateRows).toEqual([])
  })

  it('admits nobody once an ADMIN_EMAILS admin exists, and no new start prints one', async () => {
    const { harness } = listed
    const code = codeOf(await harness.created.setupLink.prepare(harness.origin))
    await harness.signUp('root@example.com')
    const outsider = await signUp(harness, 'outsider@example.com', code)
    expect(outsider.status).toBe(403)
    expect(await outsider.json()).toMatchObject({ error: setupLinkTexts.adminExists })
    expect(await harness.created.setupLink.prepare(harness.origin)).toBeUndefined()
  })
})
