// Long file: the Users tab's calls over one harness, attack tests first, one scenario per test.
import { randomUUID } from 'node:crypto'
import { session, user } from '@sprout/db/schema/auth.ts'
import { mailOutbox } from '@sprout/db/schema/mail-outbox.ts'
import {
  type AdminUser,
  type AdminUserList,
  adminUserMessages,
  bannedSignInMessage,
} from '@sprout/protocol/api/admin-users.ts'
import { eq, like } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { cookieHeader, type TestUser } from '../../testing/app-harness.ts'
import { useTestApp, withTestApp } from '../../testing/use-app-harness.ts'

const listedEmail = `listed-${Date.now()}@example.com`
const password = 'correct-horse-battery'
const everyAction = ['role', 'ban', 'unban', 'sign-out', 'reset-link', 'reset-mail'] as const
const bodyOf: Record<(typeof everyAction)[number], unknown> = {
  role: { role: 'admin' },
  ban: { reason: 'Spam' },
  unban: {},
  'sign-out': {},
  'reset-link': {},
  'reset-mail': {},
}

describe('the Users tab', { timeout: 120_000 }, () => {
  const setup = useTestApp({ ADMIN_EMAILS: listedEmail })
  const people = {} as Record<'admin' | 'listed' | 'member' | 'outsider', TestUser>

  /** `null`: nobody signed in. */
  const get = (path: string, actor: TestUser | null = people.admin) =>
    setup.harness.request(path, { user: actor ?? undefined })
  const post = (path: string, body: unknown, actor: TestUser | null = people.admin) =>
    setup.harness.request(path, {
      method: 'POST',
      user: actor ?? undefined,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  const list = async (query = '') => {
    const response = await get(`/api/admin/users${query}`)
    expect(response.status).toBe(200)
    return (await response.json()) as AdminUserList
  }
  const signIn = (email: string, secret = password) =>
    setup.harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email, password: secret }),
    })
  const sessionOf = async (email: string): Promise<TestUser> => {
    const response = await signIn(email)
    expect(response.status).toBe(200)
    const body = (await response.json()) as { user: { id: string } }
    const token = response.headers.get('set-auth-token') ?? ''
    return { id: body.user.id, email, cookie: cookieHeader(response), token }
  }
  const stillSignedIn = async (actor: TestUser) => {
    const byBearer = await get('/api/organizations?is_personal=true', actor)
    const byCookie = await setup.harness.request('/api/organizations?is_personal=true', {
      user: actor,
      as: 'cookie',
    })
    return [byBearer.status, byCookie.status]
  }

  it('is set up with an admin, an ADMIN_EMAILS admin, a member and another organization', async () => {
    const { harness } = setup
    people.admin = await harness.signUpAdmin()
    people.listed = await harness.signUp(listedEmail)
    people.member = await harness.signUp()
    people.outsider = await harness.signUp()
    await harness.createOrganization(people.outsider, 'Outsiders Inc')
  })

  it('refuses every call to anybody but a platform admin, and changes nothing', async () => {
    const { member, outsider } = people
    for (const actor of [member, outsider]) {
      expect((await get('/api/admin/users', actor)).status).toBe(403)
      for (const action of everyAction) {
        const response = await post(
          `/api/admin/users/${people.admin.id}/${action}`,
          bodyOf[action],
          actor,
        )
        expect(response.status, action).toBe(403)
      }
    }
    expect((await get('/api/admin/users', null)).status).toBe(401)
    for (const action of everyAction) {
      const response = await post(
        `/api/admin/users/${people.admin.id}/${action}`,
        bodyOf[action],
        null,
      )
      expect(response.status, action).toBe(401)
    }
    const { users } = await list()
    const admin = users.find((row) => row.id === people.admin.id)
    expect(admin).toMatchObject({ isAdmin: true, banned: false })
    expect(await stillSignedIn(people.admin)).toEqual([200, 200])
  })

  it('lists users newest first with role, organizations and last seen, and never a session token', async () => {
    const response = await get('/api/admin/users')
    const text = await response.text()
    const page = JSON.parse(text) as AdminUserList
    expect(page).toMatchObject({ total: 4, page: 1, pageSize: 50, mailConfigured: false })
    expect(page.users.map((row) => row.id)).toEqual(
      [people.outsider, people.member, people.listed, people.admin].map((person) => person.id),
    )
    const byId = new Map(page.users.map((row) => [row.id, row]))
    expect(byId.get(people.outsider.id)).toMatchObject({
      email: people.outsider.email,
      role: 'user',
      isAdmin: false,
      banned: false,
      banReason: null,
      organizations: ['Personal', 'Outsiders Inc'],
    })
    expect(byId.get(people.listed.id)).toMatchObject({ isAdmin: true })
    expect(byId.get(people.admin.id)).toMatchObject({ role: 'admin', isAdmin: true })
    const member = byId.get(people.member.id) as AdminUser
    expect(Date.parse(member.createdAt)).not.toBeNaN()
    expect(Date.parse(member.lastSeenAt ?? '')).not.toBeNaN()
    const tokens = await setup.harness.database.db.select({ token: session.token }).from(session)
    expect(tokens.length).toBeGreaterThan(0)
    for (const { token } of tokens) expect(text).not.toContain(token)
  })

  it('searches name and email in any case, takes %, _ and \\ literally', async () => {
    const local = people.member.email.split('@')[0] ?? ''
    const found = await list(`?query=${encodeURIComponent(local.toUpperCase())}`)
    expect(found.users.map((row) => row.id)).toEqual([people.member.id])
    expect(found.total).toBe(1)
    for (const literal of ['%', '_', '\\']) {
      const none = await list(`?query=${encodeURIComponent(literal)}`)
      expect(none, literal).toMatchObject({ users: [], total: 0 })
    }
    expect((await list('?query=%20%20')).total).toBe(4)
  })

  it('answers odd searches and pages with a 400 or an empty page, never a fault', async () => {
    for (const query of [
      '?query=a%00b',
      '?page=0',
      '?page=-1',
      '?page=1.5',
      '?page=abc',
      '?page=10001',
      '?sort=oldest',
      `?query=${'x'.repeat(201)}`,
    ]) {
      const response = await get(`/api/admin/users${query}`)
      expect(response.status, query).toBe(400)
      expect(((await response.json()) as { error: string }).error).toBeTruthy()
    }
    const surrogate = await get('/api/admin/users?query=%ED%A0%80')
    expect([200, 400]).toContain(surrogate.status)
    const beyond = await list('?page=10000')
    expect(beyond).toMatchObject({ users: [], total: 4, page: 10000 })
  })

  it('pages 50 at a time, newest first or by name', async () => {
    const { db } = setup.harness.database
    const start = Date.now() - 1_000_000
    await db.insert(user).values(
      Array.from({ length: 120 }, (_, index) => ({
        id: randomUUID(),
        name: `Paged ${String(index).padStart(3, '0')}`,
        email: `paged-${index}-${Date.now()}@example.com`,
        createdAt: new Date(start + index * 1000),
        updatedAt: new Date(),
        role: 'user',
      })),
    )
    try {
      const first = await list('?query=paged')
      expect(first.total).toBe(120)
      expect(first.users).toHaveLength(50)
      expect(first.users[0]?.name).toBe('Paged 119')
      const third = await list('?query=paged&page=3')
      expect(third.users.map((row) => row.name)).toEqual(
        Array.from({ length: 20 }, (_, index) => `Paged ${String(19 - index).padStart(3, '0')}`),
      )
      const byName = await list('?query=PAGED&sort=name&page=2')
      expect(byName.users[0]?.name).toBe('Paged 050')
      expect((await list('?query=paged&page=4')).users).toEqual([])
    } finally {
      await db.delete(user).where(like(user.name, 'Paged %'))
    }
  })

  it('makes a member an admin and takes it back, effective on their next call', async () => {
    const made = await post(`/api/admin/users/${people.member.id}/role`, { role: 'admin' })
    expect(made.status).toBe(200)
    expect(await made.json()).toMatchObject({ role: 'admin', isAdmin: true })
    expect((await get('/api/admin/users', people.member)).status).toBe(200)
    const removed = await post(`/api/admin/users/${people.member.id}/role`, { role: 'user' })
    expect(await removed.json()).toMatchObject({ role: 'user', isAdmin: false })
    expect((await get('/api/admin/users', people.member)).status).toBe(403)
  })

  it('refuses odd role and ban bodies, unknown users and huge ids', async () => {
    const path = `/api/admin/users/${people.member.id}`
    for (const body of [{ role: 'owner' }, {}, { role: ['admin'] }]) {
      expect((await post(`${path}/role`, body)).status).toBe(400)
    }
    const noReason = await post(`${path}/ban`, { reason: '   ' })
    expect(noReason.status).toBe(400)
    expect(((await noReason.json()) as { error: string }).error).toContain(
      adminUserMessages.reasonRequired,
    )
    expect((await post(`${path}/ban`, { reason: 'x'.repeat(501) })).status).toBe(400)
    expect((await post(`${path}/ban`, { reason: 'a\u0000b' })).status).toBe(400)
    expect((await post(`${path}/ban`, '{"reason":')).status).toBe(400)
    for (const action of everyAction) {
      for (const id of [randomUUID(), 'x'.repeat(5000)]) {
        const response = await post(`/api/admin/users/${id}/${action}`, bodyOf[action])
        expect(response.status, action).toBe(action === 'reset-mail' ? 409 : 404)
      }
    }
    const { users } = await list()
    expect(users.find((row) => row.id === people.member.id)).toMatchObject({
      banned: false,
      role: 'user',
    })
  })

  it('keeps an ADMIN_EMAILS admin an admin, and refuses banning oneself', async () => {
    const demoted = await post(`/api/admin/users/${people.listed.id}/role`, { role: 'user' })
    expect(demoted.status).toBe(409)
    expect(await demoted.json()).toEqual({ error: adminUserMessages.listedAdmin })
    const self = await post(`/api/admin/users/${people.admin.id}/ban`, { reason: 'Oops' })
    expect(self.status).toBe(409)
    expect(await self.json()).toEqual({ error: adminUserMessages.banYourself })
    expect(await stillSignedIn(people.admin)).toEqual([200, 200])
  })

  it('bans a user: every session refused at once, sign-in refused until unbanned', async () => {
    const second = await sessionOf(people.member.email)
    expect(await stillSignedIn(people.member)).toEqual([200, 200])
    const banned = await post(`/api/admin/users/${people.member.id}/ban`, { reason: 'Spam links' })
    expect(banned.status).toBe(200)
    expect(await banned.json()).toMatchObject({ banned: true, banReason: 'Spam links' })
    expect(await stillSignedIn(people.member)).toEqual([401, 401])
    expect(await stillSignedIn(second)).toEqual([401, 401])
    const refused = await signIn(people.member.email)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'BANNED_USER' })
    const unbanned = await post(`/api/admin/users/${people.member.id}/unban`, {})
    expect(await unbanned.json()).toMatchObject({ banned: false, banReason: null })
    people.member = await sessionOf(people.member.email)
    expect(await stillSignedIn(people.member)).toEqual([200, 200])
  })

  it('tells a banned user the reason when they sign in', async () => {
    const banned = await setup.harness.signUp()
    await post(`/api/admin/users/${banned.id}/ban`, { reason: 'Spam links' })
    const refused = await signIn(banned.email)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: bannedSignInMessage('Spam links') })
  })

  it('signs a user out everywhere, and they can sign in again', async () => {
    const second = await sessionOf(people.outsider.email)
    const response = await post(`/api/admin/users/${people.outsider.id}/sign-out`, {})
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ id: people.outsider.id, lastSeenAt: null })
    expect(await stillSignedIn(people.outsider)).toEqual([401, 401])
    expect(await stillSignedIn(second)).toEqual([401, 401])
    people.outsider = await sessionOf(people.outsider.email)
    expect(await stillSignedIn(people.outsider)).toEqual([200, 200])
  })

  it('hands out a reset link that sets a new password once', async () => {
    const response = await post(`/api/admin/users/${people.outsider.id}/reset-link`, {})
    expect(response.status).toBe(200)
    const { url } = (await response.json()) as { url: string }
    expect(url.startsWith(`${setup.harness.config.publicUrl}/reset-password?token=`)).toBe(true)
    const token = new URL(url).searchParams.get('token')
    const reset = (newPassword: string) =>
      setup.harness.request('/api/auth/reset-password', {
        method: 'POST',
        body: JSON.stringify({ newPassword, token }),
      })
    expect((await reset('a-brand-new-password')).status).toBe(200)
    expect((await reset('yet-another-password')).status).toBe(400)
    expect((await signIn(people.outsider.email, 'a-brand-new-password')).status).toBe(200)
    expect((await signIn(people.outsider.email, 'yet-another-password')).status).toBe(401)
  })

  it("answers 409 'Mail is not configured' for a reset mail without SMTP", async () => {
    const response = await post(`/api/admin/users/${people.outsider.id}/reset-mail`, {})
    expect(response.status).toBe(409)
    expect(await response.json()).toEqual({ error: adminUserMessages.mailNotConfigured })
  })
})

describe('the last admin', { timeout: 60_000 }, () => {
  it('cannot stop being an admin, nor be banned', async () => {
    await withTestApp({}, async (harness) => {
      const admin = await harness.signUpAdmin()
      const member = await harness.signUp()
      const post = (path: string, body: unknown, actor = admin) =>
        harness.request(path, { method: 'POST', user: actor, body: JSON.stringify(body) })
      const demoted = await post(`/api/admin/users/${admin.id}/role`, { role: 'user' })
      expect(demoted.status).toBe(409)
      expect(await demoted.json()).toEqual({ error: adminUserMessages.lastAdminRole })
      // With a second admin, one may step down; the other is then the last.
      await post(`/api/admin/users/${member.id}/role`, { role: 'admin' })
      expect((await post(`/api/admin/users/${admin.id}/role`, { role: 'user' })).status).toBe(200)
      const last = await post(`/api/admin/users/${member.id}/role`, { role: 'user' }, member)
      expect(await last.json()).toEqual({ error: adminUserMessages.lastAdminRole })
      const [row] = await harness.database.db
        .select({ role: user.role })
        .from(user)
        .where(eq(user.id, member.id))
      expect(row?.role).toBe('admin')
    })
  })
})

describe('a reset mail with SMTP configured', { timeout: 60_000 }, () => {
  it('is written to the outbox for the user', async () => {
    await withTestApp({ SMTP_URL: 'smtp://127.0.0.1:2525' }, async (harness) => {
      const admin = await harness.signUpAdmin()
      const member = await harness.signUp()
      const listed = (await (
        await harness.request('/api/admin/users', { user: admin })
      ).json()) as AdminUserList
      expect(listed.mailConfigured).toBe(true)
      const response = await harness.request(`/api/admin/users/${member.id}/reset-mail`, {
        method: 'POST',
        user: admin,
        body: '{}',
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ sent: true })
      const mails = await harness.database.db.select().from(mailOutbox)
      expect(mails).toHaveLength(1)
      expect(mails[0]).toMatchObject({ recipient: member.email, kind: 'password-reset' })
      expect(mails[0]?.textBody).toContain('/reset-password?token=')
    })
  })
})
