import { schema } from '@sprout/db/schema.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { TestUser } from '../testing/app-harness.ts'
import { useTestApp } from '../testing/use-app-harness.ts'
import { invitationLimits, tooManyInvitations } from './invitation-limit.ts'

// Issue 29: one ordinary user mailed 100 invitations to outside addresses in 15 s. Invitations are
// limited per inviter and per organization (docs/product/organizations.md "Invitations").
describe('invitation limits', { timeout: 120_000 }, () => {
  const setup = useTestApp({})
  let counter = 0

  const invite = (user: TestUser, organizationId: string, email = `out${++counter}@example.net`) =>
    setup.harness.request('/api/auth/organization/invite-member', {
      method: 'POST',
      user,
      body: JSON.stringify({ email, role: 'member', organizationId }),
    })
  const inviteMany = async (user: TestUser, organizationId: string, count: number) => {
    for (let index = 0; index < count; index += 1) {
      const response = await invite(user, organizationId)
      expect(response.status, await response.text()).toBe(200)
    }
  }
  const expectRefused = async (response: Response, email: string) => {
    expect(response.status).toBe(429)
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(3500)
    expect(await response.json()).toMatchObject({ error: tooManyInvitations(60) })
    const rows = await setup.harness.database.db
      .select()
      .from(schema.invitation)
      .where(eq(schema.invitation.email, email))
    expect(rows).toEqual([])
  }

  it('refuses an inviter past their limit, then an organization past its own', async () => {
    const { harness } = setup
    const owner = await harness.signUp()
    const second = await harness.signUp()
    const third = await harness.signUp()
    const organizationId = await harness.createOrganization(owner)
    await harness.addMember(organizationId, owner, second, 'admin')
    await harness.addMember(organizationId, owner, third, 'admin')

    await inviteMany(owner, organizationId, invitationLimits.perInviter - 2)
    await expectRefused(
      await invite(owner, organizationId, 'one-more@example.net'),
      'one-more@example.net',
    )
    // A resend mails again, so it counts too.
    const resend = await harness.request('/api/auth/organization/invite-member', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({
        email: `out${counter}@example.net`,
        role: 'member',
        organizationId,
        resend: true,
      }),
    })
    expect(resend.status).toBe(429)

    // Other admins of the organization go on until the organization's own limit.
    await inviteMany(
      second,
      organizationId,
      invitationLimits.perOrganization - invitationLimits.perInviter,
    )
    await expectRefused(
      await invite(third, organizationId, 'third@example.net'),
      'third@example.net',
    )

    // Another organization of the same admin is not held by this one's limit.
    const otherOrganization = await harness.createOrganization(third)
    expect((await invite(third, otherOrganization)).status).toBe(200)
  })
})
