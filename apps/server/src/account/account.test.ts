import { applications } from '@sprout/db/schema/applications.ts'
import { member, organization, user } from '@sprout/db/schema/auth.ts'
import type {
  AccountDeletion,
  AccountSession,
  AccountSummary,
} from '@sprout/protocol/api/account.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { cookieHeader, type TestApp, type TestUser } from '../testing/app-harness.ts'
import { useTestApp } from '../testing/use-app-harness.ts'

const password = 'correct-horse-battery'
const firefoxOnLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'

/** A second session of the same user, as another browser would open it. */
async function signInAgain(harness: TestApp, account: TestUser, secret = password) {
  const response = await harness.request('/api/auth/sign-in/email', {
    method: 'POST',
    headers: { 'user-agent': firefoxOnLinux },
    body: JSON.stringify({ email: account.email, password: secret }),
  })
  return {
    status: response.status,
    session: {
      ...account,
      cookie: cookieHeader(response),
      token: response.headers.get('set-auth-token') ?? '',
    },
  }
}

async function createApplication(harness: TestApp, owner: TestUser, organizationId?: string) {
  const response = await harness.request('/api/applications', {
    method: 'POST',
    user: owner,
    headers: organizationId ? { 'organization-id': organizationId } : {},
    body: JSON.stringify({ name: 'Book club', initial_prompt: 'A book club app', model: 'demo' }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

const deleteAccount = (harness: TestApp, account: TestUser, body: unknown) =>
  harness.request('/api/account', {
    method: 'DELETE',
    user: account,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

describe('account', { timeout: 60_000 }, () => {
  const setup = useTestApp()

  it('shows the name and email, and changes the name through update-user', async () => {
    const { harness } = setup
    const ana = await harness.signUp()
    const renamed = await harness.request('/api/auth/update-user', {
      method: 'POST',
      user: ana,
      body: JSON.stringify({ name: 'Ana Lima' }),
    })
    expect(renamed.status).toBe(200)
    const response = await harness.request('/api/account', { user: ana })
    const summary = (await response.json()) as AccountSummary
    expect(summary).toMatchObject({
      name: 'Ana Lima',
      email: ana.email,
      mailConfigured: false,
      hasPassword: true,
    })
  })

  it('changes an unconfirmed email at once without mail, and never to a taken one', async () => {
    const { harness } = setup
    const ana = await harness.signUp()
    const bruno = await harness.signUp()
    const changeEmail = (newEmail: string) =>
      harness.request('/api/auth/change-email', {
        method: 'POST',
        user: ana,
        body: JSON.stringify({ newEmail }),
      })
    const emailOf = async () =>
      ((await (await harness.request('/api/account', { user: ana })).json()) as AccountSummary)
        .email
    // The same answer as for a free address, so nobody learns who has an account.
    expect((await changeEmail(bruno.email)).status).toBe(200)
    expect(await emailOf()).toBe(ana.email)
    const fresh = `renamed-${Date.now()}@example.com`
    expect((await changeEmail(fresh)).status).toBe(200)
    expect(await emailOf()).toBe(fresh)
  })

  it('lists only the caller’s sessions, without tokens, the current one marked', async () => {
    const { harness } = setup
    const ana = await harness.signUp()
    const bruno = await harness.signUp()
    const second = await signInAgain(harness, ana)
    const response = await harness.request('/api/account/sessions', { user: ana })
    const text = await response.text()
    expect(text).not.toContain(ana.token)
    expect(text).not.toContain(second.session.token)
    expect(text).not.toContain('"token"')
    const sessions = JSON.parse(text) as AccountSession[]
    expect(sessions).toHaveLength(2)
    expect(sessions[0]?.current).toBe(true)
    expect(sessions.filter((entry) => entry.current)).toHaveLength(1)
    expect(sessions.map((entry) => entry.device)).toContain('Firefox on Linux')
    const brunos = (await (
      await harness.request('/api/account/sessions', { user: bruno })
    ).json()) as AccountSession[]
    expect(brunos).toHaveLength(1)
    expect(brunos.map((entry) => entry.id)).not.toContain(sessions[0]?.id)
  })

  it('signs out the other sessions and keeps the current one', async () => {
    const { harness } = setup
    const ana = await harness.signUp()
    const second = await signInAgain(harness, ana)
    expect((await harness.request('/api/account', { user: second.session })).status).toBe(200)
    const revoked = await harness.request('/api/auth/revoke-other-sessions', {
      method: 'POST',
      user: ana,
      body: '{}',
    })
    expect(revoked.status).toBe(200)
    expect((await harness.request('/api/account', { user: second.session })).status).toBe(401)
    const sessions = (await (
      await harness.request('/api/account/sessions', { user: ana })
    ).json()) as AccountSession[]
    expect(sessions.map((entry) => entry.current)).toEqual([true])
  })

  it('ends one of the caller’s sessions, never another user’s', async () => {
    const { harness } = setup
    const ana = await harness.signUp()
    const eve = await harness.signUp()
    const second = await signInAgain(harness, ana)
    const [own] = (await (
      await harness.request('/api/account/sessions', { user: second.session })
    ).json()) as AccountSession[]
    const stolen = await harness.request(`/api/account/sessions/${own?.id}`, {
      method: 'DELETE',
      user: eve,
    })
    expect(stolen.status).toBe(404)
    expect(await stolen.json()).toEqual({ error: 'Session not found' })
    expect((await harness.request('/api/account', { user: second.session })).status).toBe(200)
    const ended = await harness.request(`/api/account/sessions/${own?.id}`, {
      method: 'DELETE',
      user: ana,
    })
    expect(ended.status).toBe(200)
    expect((await harness.request('/api/account', { user: second.session })).status).toBe(401)
    expect((await harness.request('/api/account', { user: ana })).status).toBe(200)
  })

  it('changes the password only with the current one', async () => {
    const { harness } = setup
    const ana = await harness.signUp()
    const wrong = await harness.request('/api/auth/change-password', {
      method: 'POST',
      user: ana,
      body: JSON.stringify({ currentPassword: 'not-my-password', newPassword: 'a-new-password' }),
    })
    expect(wrong.status).toBe(400)
    expect((await signInAgain(harness, ana, 'a-new-password')).status).toBe(401)
    const changed = await harness.request('/api/auth/change-password', {
      method: 'POST',
      user: ana,
      body: JSON.stringify({ currentPassword: password, newPassword: 'a-new-password' }),
    })
    expect(changed.status).toBe(200)
    expect(await changed.text()).not.toContain(ana.token)
    expect((await signInAgain(harness, ana, 'a-new-password')).status).toBe(200)
    expect((await signInAgain(harness, ana, password)).status).toBe(401)
  })

  it('refuses deletion while the user alone owns an organization with members', async () => {
    const { harness } = setup
    const owner = await harness.signUp()
    const colleague = await harness.signUp()
    const organizationId = await harness.createOrganization(owner, 'Acme Team')
    await harness.addMember(organizationId, owner, colleague)
    const applicationId = await createApplication(harness, owner)
    const plan = (await (
      await harness.request('/api/account/deletion', { user: owner })
    ).json()) as AccountDeletion
    expect(plan.blockingOrganizations.map((entry) => entry.name)).toEqual(['Acme Team'])
    const refused = await deleteAccount(harness, owner, { confirm: owner.email })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { error: string }).error).toBe(
      'You are the only owner of "Acme Team", which other members still use. Invite another owner, or ask the other members to leave, before deleting your account.',
    )
    const { db } = harness.database
    expect(await db.select().from(user).where(eq(user.id, owner.id))).toHaveLength(1)
    expect(
      await db.select().from(applications).where(eq(applications.id, applicationId)),
    ).toHaveLength(1)
    expect((await harness.request('/api/account', { user: owner })).status).toBe(200)
  })

  it('deletes the account with its personal apps, and leaves shared organizations', async () => {
    const { harness } = setup
    const ana = await harness.signUp()
    const owner = await harness.signUp()
    const teamId = await harness.createOrganization(owner, 'Shared Team')
    await harness.addMember(teamId, owner, ana)
    const soloId = await harness.createOrganization(ana, 'Just Me')
    const personalApp = await createApplication(harness, ana)
    const soloApp = await createApplication(harness, ana, soloId)
    const teamApp = await createApplication(harness, ana, teamId)
    const plan = (await (
      await harness.request('/api/account/deletion', { user: ana })
    ).json()) as AccountDeletion
    expect(plan.blockingOrganizations).toEqual([])
    expect(plan.deletedOrganizations.map((entry) => entry.name).sort()).toEqual([
      'Just Me',
      'Personal',
    ])
    expect(plan.leftOrganizations.map((entry) => entry.name)).toEqual(['Shared Team'])
    expect(plan.applications.map((entry) => entry.id).sort()).toEqual([personalApp, soloApp].sort())

    const mismatch = await deleteAccount(harness, ana, { confirm: owner.email })
    expect(mismatch.status).toBe(400)
    expect(await mismatch.json()).toEqual({ error: 'Type your email address to confirm.' })

    const deleted = await deleteAccount(harness, ana, { confirm: ana.email.toUpperCase() })
    expect(deleted.status).toBe(200)
    const { db } = harness.database
    expect(await db.select().from(user).where(eq(user.id, ana.id))).toEqual([])
    expect(await db.select().from(member).where(eq(member.userId, ana.id))).toEqual([])
    expect(await db.select().from(organization).where(eq(organization.id, soloId))).toEqual([])
    const remaining = await db.select({ id: applications.id }).from(applications)
    const remainingIds = remaining.map((row) => row.id)
    expect(remainingIds).not.toContain(personalApp)
    expect(remainingIds).not.toContain(soloApp)
    expect(remainingIds).toContain(teamApp)
    expect((await harness.request('/api/account', { user: ana })).status).toBe(401)
    expect((await signInAgain(harness, ana)).status).toBe(401)
    expect(
      (
        await harness.request('/api/applications', {
          user: owner,
          headers: { 'organization-id': teamId },
        })
      ).status,
    ).toBe(200)
  })

  it('refuses huge, NUL and malformed deletion bodies with a 400, deleting nothing', async () => {
    const { harness } = setup
    const ana = await harness.signUp()
    const bodies = [
      { confirm: 'a'.repeat(10_000) },
      `{"confirm":"${ana.email}\\u0000"}`,
      `{"confirm":"\\ud800${ana.email}"}`,
      { confirm: 42 },
      '{"confirm":',
      '',
    ]
    for (const body of bodies) {
      const response = await deleteAccount(harness, ana, body)
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(typeof ((await response.json()) as { error: unknown }).error).toBe('string')
    }
    expect((await harness.request('/api/account', { user: ana })).status).toBe(200)
  })

  it('refuses the account calls to anonymous callers', async () => {
    const { harness } = setup
    for (const path of ['/api/account', '/api/account/sessions', '/api/account/deletion']) {
      expect((await harness.request(path)).status).toBe(401)
    }
  })
})
