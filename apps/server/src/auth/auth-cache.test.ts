import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../app.ts'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'

/** Two server instances on one database: what one revokes, the other refuses on the next call. */
describe('the session and membership cache across instances', () => {
  let first: TestApp
  let second: ReturnType<typeof createApp>
  beforeAll(async () => {
    first = await createTestApp()
    second = createApp({
      config: first.config,
      database: first.database,
      authSecret: 'test-secret-test-secret-test-secret-0123',
      devboxes: first.devboxes,
      vaultKeyring: first.created.vault.keyring,
    })
    await second.authCache.start()
  })
  afterAll(async () => {
    await second.authCache.stop()
    await first.close()
  })

  const onSecond = (path: string, user: TestUser) =>
    second.app.request(path, { headers: { authorization: `Bearer ${user.token}` } })

  const eventually = async (check: () => Promise<number>, expected: number) => {
    const deadline = Date.now() + 2000
    let status = await check()
    while (status !== expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5))
      status = await check()
    }
    return status
  }

  it('refuses a signed-out session on the other instance', async () => {
    const user = await first.signUp()
    expect((await onSecond('/api/admin/status', user)).status).toBe(200)
    const signOut = await first.request('/api/auth/sign-out', { method: 'POST', user })
    expect(signOut.status).toBe(200)
    expect(
      await eventually(async () => (await onSecond('/api/admin/status', user)).status, 401),
    ).toBe(401)
  })

  it('refuses a member who left on the other instance', async () => {
    const owner = await first.signUp()
    const member = await first.signUp()
    const organizationId = await first.createOrganization(owner)
    await first.addMember(organizationId, owner, member)
    const lookup = () => onSecond(`/api/organizations?clerk_id=${organizationId}`, member)
    expect((await lookup()).status).toBe(200)
    await first.request('/api/auth/organization/leave', {
      method: 'POST',
      user: member,
      body: JSON.stringify({ organizationId }),
    })
    expect(await eventually(async () => (await lookup()).status, 404)).toBe(404)
  })
})
