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

  /**
   * A session with an open exploration stream over real HTTP and a listen token minted before
   * its end; `end` ends it, the stream must drop within seconds and the token must open nothing.
   */
  const expectEnded = async (session: TestUser, end: () => Response | Promise<Response>) => {
    const organizationId = await personalOrganizationOf(session)
    const actor = { harness: chat.harness, user: session, organizationId }
    const created = await call<{ id: string }>(actor, '/api/explorations', {})
    expect(created.status).toBe(201)
    const token = await listenToken(actor)
    const url = `http://127.0.0.1:${chat.harness.port}/api/explorations/${created.body.id}/listen`
    const reading = readStream(url, {
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
})
