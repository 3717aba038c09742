// Push to Git with a connected integration's token instead of a stored one (docs/product/
// versions.md "Push to Git"): a real authorization server issues it, a real git server checks it.
import { findFreePort } from '@sprout/devbox/drivers/local/processes/free-port.ts'
import type { GitRemote, PushResult } from '@sprout/protocol/api/versions.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/app-harness.ts'
import { type ChatActor, call, createReadyApplication } from '../testing/chat-client.ts'
import { startGitHttpServer } from '../testing/git-http-server.ts'
import {
  followToRedirect,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from '../testing/oauth-server.ts'

const service = 'github'

describe('Push to Git with the GitHub integration’s token', { timeout: 240_000 }, () => {
  let harness: TestApp
  let authorizationServer: TestAuthorizationServer
  let actor: ChatActor
  let applicationId: string
  let gitPort: number
  const remoteUrl = () => `/api/applications/${applicationId}/git-remote`
  const push = () =>
    call<PushResult & { error?: string }>(actor, `/api/applications/${applicationId}/push`, {})

  beforeAll(async () => {
    gitPort = await findFreePort()
    // localhost is another host than the authorization server's 127.0.0.1 (issue 29, item 1).
    harness = await createTestApp({
      GIT_ALLOWED_HOSTS: `127.0.0.1:${gitPort},localhost:${gitPort}`,
    })
    const owner = await harness.signUpAdmin()
    actor = { harness, user: owner, organizationId: await harness.createOrganization(owner) }
    const callbackPrefix = `${harness.config.publicUrl}/api/oauth/callback/`
    authorizationServer = await startAuthorizationServer({
      redirectUris: [`${callbackPrefix}${service}`],
    })
    const defined = await harness.request('/api/admin/integrations', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({
        service_name: service,
        display_name: 'GitHub',
        client_id: authorizationServer.clientId,
        client_secret: authorizationServer.clientSecret,
        auth_url: authorizationServer.authUrl,
        token_url: authorizationServer.tokenUrl,
        scopes: 'read, write',
      }),
    })
    expect(defined.status, await defined.clone().text()).toBe(201)
    applicationId = await createReadyApplication(actor)
  })
  afterAll(async () => {
    await authorizationServer?.close()
    await harness?.close()
  })

  it('refuses the push while the organization has no connection, then pushes with its token', async () => {
    const setRemote = await call<GitRemote>(
      actor,
      remoteUrl(),
      { url: `http://127.0.0.1:${gitPort}/app.git`, integration: service },
      'PUT',
    )
    expect(setRemote.body).toMatchObject({ hasToken: false, integration: service })
    const unconnected = await push()
    expect(unconnected.status).toBe(404)

    // The organization connects GitHub (Settings → Connect), as the browser would.
    const state = await call<{ authorization_url: string }>(actor, '/api/oauth/state', {
      integration_name: service,
    })
    const callback = await followToRedirect(
      state.body.authorization_url,
      `${harness.config.publicUrl}/api/oauth/callback/`,
    )
    const back = await harness.request(`${callback.pathname}${callback.search}`, {
      user: actor.user,
    })
    expect(back.status).toBe(302)
    const issued = await call<{ access_token: string }>(actor, `/api/integrations/${service}/token`)
    expect(issued.status).toBe(200)

    // The git host accepts exactly the connection's access token.
    const gitServer = await startGitHttpServer(issued.body.access_token, gitPort)
    try {
      await gitServer.createRepository('app')
      const pushed = await push()
      expect(pushed.status, JSON.stringify(pushed.body)).toBe(200)
      expect((await gitServer.log('app'))[0]?.split(' ')[0]).toBe(pushed.body.commitId)
      // null goes back to the stored token: there is none, and the host refuses the push.
      await call(
        actor,
        remoteUrl(),
        { url: `http://127.0.0.1:${gitPort}/app.git`, integration: null },
        'PUT',
      )
      expect((await call<GitRemote>(actor, remoteUrl())).body?.integration).toBeNull()
      expect((await push()).status).toBe(422)
    } finally {
      await gitServer.close()
    }
  })

  it('refuses a malformed integration name with 400 and changes nothing', async () => {
    const refused = await call(
      actor,
      remoteUrl(),
      { url: 'https://github.com/team/app.git', integration: '../Evil\u0000' },
      'PUT',
    )
    expect(refused.status).toBe(400)
    expect((await call<GitRemote>(actor, remoteUrl())).body?.url).toBe(
      `http://127.0.0.1:${gitPort}/app.git`,
    )
  })

  it('sends the connection token to no other host: refused when set, and at the push once the integration moved', async () => {
    const before = (await call<GitRemote>(actor, remoteUrl())).body
    const elsewhere = await call<{ error: string }>(
      actor,
      remoteUrl(),
      { url: `http://localhost:${gitPort}/app.git`, integration: service },
      'PUT',
    )
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.body.error).toBe(
      `The ${service} connection's token is sent only to 127.0.0.1: use a remote URL there, or sign in with a token.`,
    )
    expect((await call<GitRemote>(actor, remoteUrl())).body).toEqual(before)

    // A remote set while it was allowed, then the admin moves the integration to another host.
    const set = await call(
      actor,
      remoteUrl(),
      { url: `http://127.0.0.1:${gitPort}/app.git`, integration: service },
      'PUT',
    )
    expect(set.status).toBe(200)
    const moved = await harness.request(`/api/admin/integrations/${service}`, {
      method: 'PUT',
      user: actor.user,
      body: JSON.stringify({
        display_name: 'GitHub',
        client_id: authorizationServer.clientId,
        client_secret: authorizationServer.clientSecret,
        auth_url: authorizationServer.authUrl.replace('127.0.0.1', 'localhost'),
        token_url: authorizationServer.tokenUrl.replace('127.0.0.1', 'localhost'),
        scopes: 'read, write',
      }),
    })
    expect(moved.status, await moved.clone().text()).toBe(200)
    const gitServer = await startGitHttpServer('any-token', gitPort)
    try {
      const pushed = await push()
      expect(pushed.status).toBe(422)
      expect(pushed.body.error).toContain('is sent only to localhost')
      expect(gitServer.seenAuthorizations).toEqual([])
    } finally {
      await gitServer.close()
    }
  })
})
