import { runs } from '@sprout/db/schema/runs.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestUser } from '../../testing/app-harness.ts'
import {
  type ChatActor,
  call,
  listenToken,
  readStream,
  startChatHarness,
} from '../../testing/chat-client.ts'

type ChatHarness = Awaited<ReturnType<typeof startChatHarness>>

/** Resolves once `condition` holds, checking every 20 ms (up to 10 s). */
async function waitFor(condition: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// docs/product/admin.md "Users tab": signing a user out everywhere or banning them ends their open
// streams at once, and a ban stops their runs.
describe('a ban and a sign-out everywhere, live', { timeout: 120_000 }, () => {
  let chat: ChatHarness
  let admin: TestUser
  let actor: ChatActor

  beforeAll(async () => {
    chat = await startChatHarness()
    actor = chat.actor
    // The chat's owner is the installation's admin (the setup link); a second admin, made by the
    // owner, bans the owner here.
    admin = await chat.harness.signUp()
    const promoted = await chat.harness.request(`/api/admin/users/${admin.id}/role`, {
      method: 'POST',
      user: actor.user,
      body: JSON.stringify({ role: 'admin' }),
    })
    if (promoted.status !== 200) throw new Error(`promotion failed: ${await promoted.text()}`)
  })
  afterAll(() => chat.close())

  const adminCall = (path: string, body: unknown) =>
    chat.harness.request(path, { method: 'POST', user: admin, body: JSON.stringify(body) })

  /**
   * The exploration's event stream over real HTTP, as the web reads it (fetch, bearer); resolves
   * to its status once the server ends it (a dropped connection counts as ended).
   */
  const listen = (explorationId: string) =>
    readStream(`http://127.0.0.1:${chat.harness.port}/api/explorations/${explorationId}/listen`, {
      timeoutMs: 15_000,
      init: {
        method: 'POST',
        headers: {
          authorization: `Bearer ${actor.user.token}`,
          origin: chat.harness.config.publicUrl,
          'organization-id': actor.organizationId,
          'content-type': 'application/json',
        },
        body: '{}',
      },
    }).then(
      (result) => result.status,
      (error: Error) => (error.message === 'terminated' ? 'dropped' : Promise.reject(error)),
    )
  const openStreams = () => chat.harness.created.userStreams.openCount(actor.user.id)

  it('signing out everywhere ends the user’s open stream at once', async () => {
    const created = await call<{ id: string }>(actor, '/api/explorations', {})
    expect(created.status).toBe(201)
    const reading = listen(created.body.id)
    await waitFor(() => openStreams() === 1, 'the stream to open')
    const started = Date.now()
    const response = await adminCall(`/api/admin/users/${actor.user.id}/sign-out`, {})
    expect(response.status).toBe(200)
    expect(await reading).toBe('dropped')
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(openStreams()).toBe(0)
    expect(await listen(created.body.id)).toBe(401)
  })

  it('a ban stops the user’s running run and ends their stream', async () => {
    const signedIn = await chat.harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: actor.user.email, password: 'correct-horse-battery' }),
    })
    actor.user = { ...actor.user, token: signedIn.headers.get('set-auth-token') ?? '' }
    chat.fake.push({ blocks: [{ type: 'text', text: 'Thinking it over' }], holdOpen: true })
    const created = await call<{ id: string; run_id: string }>(actor, '/api/explorations', {
      message: 'Take your time',
      model: 'claude-sonnet-4-5',
    })
    expect(created.status).toBe(201)
    const reading = listen(created.body.id)
    await waitFor(() => openStreams() === 1, 'the stream to open')
    await waitFor(async () => {
      const [run] = await chat.harness.database.db
        .select({ status: runs.status })
        .from(runs)
        .where(eq(runs.id, created.body.run_id))
      return run?.status === 'running'
    }, 'the run to start')
    const banned = await adminCall(`/api/admin/users/${actor.user.id}/ban`, { reason: 'Abuse' })
    expect(banned.status).toBe(200)
    expect(await reading).toBe('dropped')
    expect(openStreams()).toBe(0)
    await chat.harness.created.conversations.runs.settled(created.body.id)
    const [run] = await chat.harness.database.db
      .select({ status: runs.status })
      .from(runs)
      .where(eq(runs.id, created.body.run_id))
    expect(run?.status).toBe('interrupted')
  })

  it('refuses a listen token issued before the user was signed out everywhere', async () => {
    const other = await chat.harness.signUp()
    await adminCall(`/api/admin/users/${actor.user.id}/unban`, {})
    const signedIn = await chat.harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: actor.user.email, password: 'correct-horse-battery' }),
    })
    expect(signedIn.status).toBe(200)
    const user = { ...actor.user, token: signedIn.headers.get('set-auth-token') ?? '' }
    const oldToken = await listenToken({ harness: chat.harness, user })
    // `iat` counts whole seconds: sign out once the token's second has passed.
    const payload = JSON.parse(Buffer.from(oldToken.split('.')[1] ?? '', 'base64url').toString())
    await waitFor(() => Date.now() >= (payload.iat + 1) * 1000, 'the next second')
    await adminCall(`/api/admin/users/${actor.user.id}/sign-out`, {})
    const listen = (token: string) =>
      chat.harness.request(
        `/api/demo/applications/no-such-app/listen?conversation_id=none&token=${token}`,
      )
    const refused = await listen(oldToken)
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: 'Invalid or expired listen token' })
    // Anybody else's token still opens what they may see (here: nothing, 404).
    const otherToken = await listenToken({ harness: chat.harness, user: other })
    expect((await listen(otherToken)).status).toBe(404)
  })
})
