import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.ts'

describe('organizations', () => {
  let harness: TestApp
  let owner: TestUser
  let member: TestUser
  let outsider: TestUser
  let organizationId: string

  beforeAll(async () => {
    harness = await createTestApp()
    owner = await harness.signUp()
    member = await harness.signUp()
    outsider = await harness.signUp()
    organizationId = await harness.createOrganization(owner, 'Acme')
    await harness.addMember(organizationId, owner, member)
  })
  afterAll(() => harness.close())

  it('maps the auth provider organization id to the internal id for members', async () => {
    for (const user of [owner, member]) {
      const response = await harness.request(`/api/organizations?clerk_id=${organizationId}`, {
        user,
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ id: organizationId })
    }
  })

  it('answers 404 to a user of another organization', async () => {
    const response = await harness.request(`/api/organizations?clerk_id=${organizationId}`, {
      user: outsider,
    })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'Organization not found' })
  })

  it('returns a different personal organization per user', async () => {
    const personal = async (user: TestUser) => {
      const response = await harness.request('/api/organizations?is_personal=true', { user })
      return ((await response.json()) as { id: string }).id
    }
    expect(await personal(owner)).not.toBe(await personal(member))
    expect(await personal(owner)).not.toBe(organizationId)
  })

  it('names the missing query parameter', async () => {
    const response = await harness.request('/api/organizations', { user: owner })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toMatch(/clerk_id/)
  })

  it('refuses to delete, invite into or leave a personal organization', async () => {
    const personalResponse = await harness.request('/api/organizations?is_personal=true', {
      user: owner,
    })
    const personalId = ((await personalResponse.json()) as { id: string }).id
    const invite = await harness.request('/api/auth/organization/invite-member', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({ email: member.email, role: 'member', organizationId: personalId }),
    })
    expect(invite.status).toBe(400)
    // No screen deletes organizations: the endpoint is not reachable at all (auth-endpoints.ts).
    const remove = await harness.request('/api/auth/organization/delete', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({ organizationId: personalId }),
    })
    expect(remove.status).toBe(404)
    const leave = await harness.request('/api/auth/organization/leave', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({ organizationId: personalId }),
    })
    expect(leave.status).toBe(400)
  })

  it('takes access away from a member who left on the next request', async () => {
    const leaver = await harness.signUp()
    await harness.addMember(organizationId, owner, leaver)
    const before = await harness.request(`/api/organizations?clerk_id=${organizationId}`, {
      user: leaver,
    })
    expect(before.status).toBe(200)
    const removal = await harness.request('/api/auth/organization/leave', {
      method: 'POST',
      user: leaver,
      body: JSON.stringify({ organizationId }),
    })
    expect(removal.status).toBe(200)
    const after = await harness.request(`/api/organizations?clerk_id=${organizationId}`, {
      user: leaver,
    })
    expect(after.status).toBe(404)
  })
})
