import { randomUUID } from 'node:crypto'
import { schema } from '@sprout/db/schema.ts'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TestUser } from '../testing/app-harness.ts'
import { useOrganizationHarness } from '../testing/organization-harness.ts'

describe('organizations', () => {
  const setup = useOrganizationHarness({ organizationName: 'Acme' })
  let member: TestUser
  let outsider: TestUser

  beforeAll(async () => {
    member = await setup.harness.signUp()
    outsider = await setup.harness.signUp()
    await setup.harness.addMember(setup.organizationId, setup.owner, member)
  })

  it('maps the auth provider organization id to the internal id for members', async () => {
    for (const user of [setup.owner, member]) {
      const response = await setup.harness.request(
        `/api/organizations?clerk_id=${setup.organizationId}`,
        {
          user,
        },
      )
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ id: setup.organizationId })
    }
  })

  it('answers 404 to a user of another organization', async () => {
    const response = await setup.harness.request(
      `/api/organizations?clerk_id=${setup.organizationId}`,
      {
        user: outsider,
      },
    )
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'Organization not found' })
  })

  it('returns a different personal organization per user', async () => {
    const personal = async (user: TestUser) => {
      const response = await setup.harness.request('/api/organizations?is_personal=true', { user })
      return ((await response.json()) as { id: string }).id
    }
    expect(await personal(setup.owner)).not.toBe(await personal(member))
    expect(await personal(setup.owner)).not.toBe(setup.organizationId)
  })

  // Issue 28: a link to an app's builder opens in the organization that owns it.
  it('names the organization of an application or exploration to its members, and 404 to others', async () => {
    const { db } = setup.harness.database
    const applicationId = randomUUID()
    await db.insert(schema.applications).values({
      id: applicationId,
      organizationId: setup.organizationId,
      name: 'Linked',
      slug: `linked-${applicationId.slice(0, 8)}`,
      initialPrompt: 'A link',
      model: 'demo',
    })
    const personalOf = async (user: TestUser) => {
      const response = await setup.harness.request('/api/organizations?is_personal=true', { user })
      return ((await response.json()) as { id: string }).id
    }
    const explorationId = randomUUID()
    await db.insert(schema.conversations).values({
      id: explorationId,
      organizationId: await personalOf(member),
      kind: 'exploration',
      title: 'Explored',
      activeModel: 'demo',
    })
    const lookup = (query: string, user: TestUser) =>
      setup.harness.request(`/api/organizations?${query}`, { user })

    for (const user of [setup.owner, member]) {
      const found = await lookup(`application_id=${applicationId}`, user)
      expect(await found.json()).toEqual({ id: setup.organizationId, isPersonal: false })
    }
    const explored = await lookup(`exploration_id=${explorationId}`, member)
    expect(await explored.json()).toEqual({ id: await personalOf(member), isPersonal: true })

    for (const [query, user, error] of [
      [`application_id=${applicationId}`, outsider, 'Application not found'],
      [`application_id=${randomUUID()}`, setup.owner, 'Application not found'],
      [`exploration_id=${explorationId}`, setup.owner, 'Exploration not found'],
    ] as const) {
      const refused = await lookup(query, user)
      expect(refused.status, query).toBe(404)
      expect(await refused.json()).toEqual({ error })
    }
  })

  it('names the missing query parameter', async () => {
    const response = await setup.harness.request('/api/organizations', { user: setup.owner })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toMatch(/clerk_id/)
  })

  it('refuses to delete, invite into or leave a personal organization', async () => {
    const personalResponse = await setup.harness.request('/api/organizations?is_personal=true', {
      user: setup.owner,
    })
    const personalId = ((await personalResponse.json()) as { id: string }).id
    const invite = await setup.harness.request('/api/auth/organization/invite-member', {
      method: 'POST',
      user: setup.owner,
      body: JSON.stringify({ email: member.email, role: 'member', organizationId: personalId }),
    })
    expect(invite.status).toBe(400)
    // No screen deletes organizations: the endpoint is not reachable at all (auth-endpoints.ts).
    const remove = await setup.harness.request('/api/auth/organization/delete', {
      method: 'POST',
      user: setup.owner,
      body: JSON.stringify({ organizationId: personalId }),
    })
    expect(remove.status).toBe(404)
    const leave = await setup.harness.request('/api/auth/organization/leave', {
      method: 'POST',
      user: setup.owner,
      body: JSON.stringify({ organizationId: personalId }),
    })
    expect(leave.status).toBe(400)
  })

  it('takes access away from a member who left on the next request', async () => {
    const leaver = await setup.harness.signUp()
    await setup.harness.addMember(setup.organizationId, setup.owner, leaver)
    const before = await setup.harness.request(
      `/api/organizations?clerk_id=${setup.organizationId}`,
      {
        user: leaver,
      },
    )
    expect(before.status).toBe(200)
    const removal = await setup.harness.request('/api/auth/organization/leave', {
      method: 'POST',
      user: leaver,
      body: JSON.stringify({ organizationId: setup.organizationId }),
    })
    expect(removal.status).toBe(200)
    const after = await setup.harness.request(
      `/api/organizations?clerk_id=${setup.organizationId}`,
      {
        user: leaver,
      },
    )
    expect(after.status).toBe(404)
  })
})
