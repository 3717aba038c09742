import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestUser } from '../testing/app-harness.ts'
import { call, listenToken, readStream, startChatHarness } from '../testing/chat-client.ts'

type ChatHarness = Awaited<ReturnType<typeof startChatHarness>>
const password = 'correct-horse-battery'

/** Resolves once `condition` holds, checking every 20 ms (up to 10 s). */
async function waitFor(condition: () => boolean, what: string) {
  const deadline = Date.now() + 10_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// Issue 29: 'Sign out other sessions' and a password reset left the ended sessions' open streams
// running and their listen tokens valid. Every way a session ends ends both
// (auth/user-streams.ts; docs/security.md "The product's own surface").
describe('every way a session ends ends its streams and listen tokens', {
  timeout: 180_000,
}, () => {
  let chat: ChatHarness
  beforeAll(async () => {
    chat = await startChatHarness()
  })
  afterAll(() => chat.close())

  const request = (path: string, init: RequestInit & { user?: TestUser } = {}) =>
    chat.harness.request(path, { method: 'POST', ...init })

  /** A new session of the user, as a sign-in on another device makes. */
  const signIn = async (user: TestUser, secret = password): Promise<TestUser> => {
    const response = await request('/api/auth/sign-in/email', {
      body: JSON.stringify({ email: user.email, password: secret }),
    })
    expect(response.status).toBe(200)
    return { ...user, token: response.headers.get('set-auth-token') ?? '' }
  }

  const sessionIdOf = async (user: TestUser) => {
    const response = await chat.harness.request('/api/account/sessions', { user })
    const sessions = (await response.json()) as { id: string; current: boolean }[]
    const current = sessions.find((session) => session.current)
    if (!current) throw new Error('no current session')
    return current.id
  }

  /** An exploration stream of the session in the organization, over real HTTP. */
  const openStream = async (session: TestUser, organizationId: string) => {
    const actor = { harness: chat.harness, user: session, organizationId }
    const created = await call<{ id: string }>(actor, '/api/explorations', {})
    expect(created.status).toBe(201)
    const url = `http://127.0.0.1:${chat.harness.port}/api/explorations/${created.body.id}/listen`
    return readStream(url, {
      timeoutMs: 20_000,
      init: {
        method: 'POST',
        headers: {
          authorization: `Bearer ${session.token}`,
          origin: chat.harness.config.publicUrl,
          'organization-id': organizationId,
          'content-type': 'application/json',
        },
        body: '{}',
      },
    }).then(
      (result) => result.status,
      (error: Error) => (error.message === 'terminated' ? 'dropped' : Promise.reject(error)),
    )
  }

  /**
   * A session with an open exploration stream over real HTTP and a listen token minted before
   * its end; `end` ends it, the stream must drop within seconds and the token must open nothing.
   */
  const expectEnded = async (session: TestUser, end: () => Response | Promise<Response>) => {
    const organizationId = await personalOrganizationOf(session)
    const token = await listenToken({ harness: chat.harness, user: session })
    const reading = openStream(session, organizationId)
    const streams = chat.harness.created.userStreams
    await waitFor(() => streams.openCount(session.id) === 1, 'the stream to open')
    const started = Date.now()
    const ended = await end()
    expect(ended.status).toBe(200)
    expect(await reading).toBe('dropped')
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(streams.openCount(session.id)).toBe(0)
    const listen = await chat.harness.request(
      `/api/demo/applications/no-such-app/listen?conversation_id=none&token=${token}`,
    )
    expect(listen.status).toBe(401)
    expect(await listen.json()).toEqual({ error: 'Invalid or expired listen token' })
  }

  const personalOrganizationOf = async (user: TestUser) => {
    const response = await chat.harness.request('/api/organizations?is_personal=true', { user })
    return ((await response.json()) as { id: string }).id
  }

  it('signing out', async () => {
    const user = await chat.harness.signUp()
    await expectEnded(user, () => request('/api/auth/sign-out', { user, body: '{}' }))
  })

  it('revoking the session from another one (Account page)', async () => {
    const user = await chat.harness.signUp()
    const other = await signIn(user)
    const sessionId = await sessionIdOf(user)
    await expectEnded(user, () =>
      chat.harness.request(`/api/account/sessions/${sessionId}`, { method: 'DELETE', user: other }),
    )
  })

  it('signing out the other sessions', async () => {
    const user = await chat.harness.signUp()
    const other = await signIn(user)
    await expectEnded(user, () =>
      request('/api/auth/revoke-other-sessions', { user: other, body: '{}' }),
    )
    // The session that asked goes on.
    expect((await chat.harness.request('/api/account', { user: other })).status).toBe(200)
  })

  it('changing the password with the other sessions signed out', async () => {
    const user = await chat.harness.signUp()
    const other = await signIn(user)
    const body = {
      currentPassword: password,
      newPassword: 'a-new-password',
      revokeOtherSessions: true,
    }
    await expectEnded(user, () =>
      request('/api/auth/change-password', { user: other, body: JSON.stringify(body) }),
    )
  })

  it('resetting the password', async () => {
    const user = await chat.harness.signUp()
    const link = await request(`/api/admin/users/${user.id}/reset-link`, {
      user: chat.actor.user,
      body: '{}',
    })
    const { url } = (await link.json()) as { url: string }
    const token = new URL(url).searchParams.get('token') ?? ''
    await expectEnded(user, () =>
      request('/api/auth/reset-password', {
        body: JSON.stringify({ token, newPassword: 'a-brand-new-password' }),
      }),
    )
  })

  it('deleting the account', async () => {
    const user = await chat.harness.signUp()
    await expectEnded(user, () =>
      chat.harness.request('/api/account', {
        method: 'DELETE',
        user,
        body: JSON.stringify({ confirm: user.email }),
      }),
    )
  })

  it('leaving an organization ends the streams opened in it, not the others', async () => {
    const owner = await chat.harness.signUp()
    const member = await chat.harness.signUp()
    const team = await chat.harness.createOrganization(owner, 'Left behind')
    await chat.harness.addMember(team, owner, member)
    const inTeam = openStream(member, team)
    const inPersonal = openStream(member, await personalOrganizationOf(member))
    const streams = chat.harness.created.userStreams
    await waitFor(() => streams.openCount(member.id) === 2, 'both streams to open')
    const left = await request('/api/auth/organization/leave', {
      user: member,
      body: JSON.stringify({ organizationId: team }),
    })
    expect(left.status).toBe(200)
    expect(await inTeam).toBe('dropped')
    expect(streams.openCount(member.id)).toBe(1)
    // Another member's leaving ends nothing of the owner's.
    expect(streams.openCount(owner.id)).toBe(0)
    await request('/api/auth/sign-out', { user: member, body: '{}' })
    expect(await inPersonal).toBe('dropped')
  })
})
