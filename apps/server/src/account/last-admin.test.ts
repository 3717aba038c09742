import { user } from '@sprout/db/schema/auth.ts'
import { ACCOUNT_LAST_ADMIN } from '@sprout/protocol/api/account.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestApp, TestUser } from '../testing/app-harness.ts'
import { useTestApp } from '../testing/use-app-harness.ts'

const deleteAccount = (harness: TestApp, account: TestUser) =>
  harness.request('/api/account', {
    method: 'DELETE',
    user: account,
    body: JSON.stringify({ confirm: account.email }),
  })

const accountExists = async (harness: TestApp, account: TestUser) =>
  (await harness.database.db.select().from(user).where(eq(user.id, account.id))).length === 1

// Issue 29: the last admin could delete their own account, leaving the installation without one
// until the next start printed a new setup link. Refused as the Users tab refuses their demotion
// (docs/product/admin.md "Users tab").
describe('the last admin’s account', { timeout: 60_000 }, () => {
  const setup = useTestApp()
  const listed = useTestApp({ ADMIN_EMAILS: 'root@example.com' })

  it('is not deleted while no other admin is left, and is once there is one', async () => {
    const { harness } = setup
    const admin = await harness.signUpAdmin()
    const refused = await deleteAccount(harness, admin)
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({ error: ACCOUNT_LAST_ADMIN })
    expect(await accountExists(harness, admin)).toBe(true)
    // Nothing went: the session still works.
    expect((await harness.request('/api/account', { user: admin })).status).toBe(200)

    const other = await harness.signUp()
    const promoted = await harness.request(`/api/admin/users/${other.id}/role`, {
      method: 'POST',
      user: admin,
      body: JSON.stringify({ role: 'admin' }),
    })
    expect(promoted.status).toBe(200)
    expect((await deleteAccount(harness, admin)).status).toBe(200)
    expect(await accountExists(harness, admin)).toBe(false)
    // Now the other one is the last.
    expect((await deleteAccount(harness, other)).status).toBe(409)
  })

  it('counts an admin listed in ADMIN_EMAILS, and an ordinary user is not held', async () => {
    const { harness } = listed
    const root = await harness.signUp('root@example.com')
    const refused = await deleteAccount(harness, root)
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({ error: ACCOUNT_LAST_ADMIN })
    const ordinary = await harness.signUp()
    expect((await deleteAccount(harness, ordinary)).status).toBe(200)
  })
})
