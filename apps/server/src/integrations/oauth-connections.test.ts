// Long file: one real authorization server and one app for every connection scenario of decision 018.
import { member as membershipRows } from '@sprout/db/schema/auth.ts'
import { integrationConnections, oauthStates } from '@sprout/db/schema/integrations.ts'
import type { Integration } from '@sprout/protocol/api/integrations.ts'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'
import {
  followToRedirect,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from '../testing/oauth-server.ts'
import { SECRET_FOR_NEW_HOST } from './definitions.ts'
import { connectionOwner, unseal } from './sealing.ts'

const service = 'tracker'

describe('connecting an integration against a real authorization server', {
  timeout: 120_000,
}, () => {
  let harness: TestApp
  let authorizationServer: TestAuthorizationServer
  let admin: TestUser
  let member: TestUser
  let outsider: TestUser
  let organizationId: string
  let otherOrganizationId: string
  let callbackPrefix: string

  const as = (user: TestUser, path: string, init: RequestInit = {}, orgId = organizationId) =>
    harness.request(path, { ...init, user, headers: { 'organization-id': orgId } })
  const connectionRows = (orgId = organizationId) =>
    harness.database.db
      .select()
      .from(integrationConnections)
      .where(
        and(
          eq(integrationConnections.organizationId, orgId),
          eq(integrationConnections.serviceName, service),
        ),
      )
  const storedTokens = async () => {
    const [row] = await connectionRows()
    if (!row) throw new Error('not connected')
    const keyring = harness.created.integrationDeps.keyring
    const owner = connectionOwner(organizationId, service)
    return {
      row,
      accessToken: unseal(keyring, owner, 'access_token', row.accessToken),
      refreshToken: row.refreshToken
        ? unseal(keyring, owner, 'refresh_token', row.refreshToken)
        : undefined,
    }
  }
  /** Clicks Connect: the state call, then the authorization server until it sends us back. */
  const authorize = async (user = member, orgId = organizationId) => {
    const response = await as(
      user,
      '/api/oauth/state',
      {
        method: 'POST',
        body: JSON.stringify({ integration_name: service }),
      },
      orgId,
    )
    expect(response.status).toBe(200)
    const { state, authorization_url } = (await response.json()) as {
      state: string
      authorization_url: string
    }
    return {
      state,
      authorizationUrl: authorization_url,
      callback: await followToRedirect(authorization_url, callbackPrefix),
    }
  }
  /** The browser arrives at the redirect URI, signed in as `user`. */
  const callback = async (url: URL, user: TestUser | null = member) => {
    const response = await harness.request(`${url.pathname}${url.search}`, {
      user: user ?? undefined,
    })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get('location') ?? '', 'http://x')
    expect(location.pathname).toBe('/settings')
    return {
      connected: location.searchParams.get('connected'),
      error: location.searchParams.get('integration_error'),
    }
  }
  /** The stored access token's expiry passes (as if its lifetime had run out). */
  const expireStoredToken = () =>
    harness.database.db
      .update(integrationConnections)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(integrationConnections.organizationId, organizationId))
  const connect = async (user = member) => callback((await authorize(user)).callback, user)
  const token = (user = member, orgId = organizationId) =>
    as(user, `/api/integrations/${service}/token`, {}, orgId)
  const list = async (user = member, orgId = organizationId) =>
    (await (await as(user, '/api/integrations', {}, orgId)).json()) as Integration[]
  const setRevokeUrl = async (revokeUrl: string) => {
    const [current] = (await (
      await harness.request('/api/admin/integrations', { user: admin })
    ).json()) as Record<string, unknown>[]
    const response = await harness.request(`/api/admin/integrations/${service}`, {
      method: 'PUT',
      user: admin,
      body: JSON.stringify({ ...current, revoke_url: revokeUrl, client_secret: '' }),
    })
    expect(response.status, await response.clone().text()).toBe(200)
  }
  const disconnect = (user = member) =>
    as(user, `/api/integrations/${service}`, { method: 'DELETE' })

  beforeAll(async () => {
    harness = await createTestApp()
    admin = await harness.signUpAdmin()
    member = await harness.signUp()
    outsider = await harness.signUp()
    organizationId = await harness.createOrganization(admin, 'Integrators')
    await harness.addMember(organizationId, admin, member)
    otherOrganizationId = await harness.createOrganization(outsider, 'Others')
    callbackPrefix = `${harness.config.publicUrl}/api/oauth/callback/`
    authorizationServer = await startAuthorizationServer({
      redirectUris: [`${callbackPrefix}${service}`],
    })
    const created = await harness.request('/api/admin/integrations', {
      method: 'POST',
      user: admin,
      body: JSON.stringify({
        service_name: service,
        display_name: 'Tracker',
        client_id: authorizationServer.clientId,
        client_secret: authorizationServer.clientSecret,
        auth_url: authorizationServer.authUrl,
        token_url: authorizationServer.tokenUrl,
        revoke_url: authorizationServer.revokeUrl,
        scopes: 'read, write',
        additional_params: '{"prompt": "consent"}',
      }),
    })
    expect(created.status, await created.clone().text()).toBe(201)
  })
  afterAll(async () => {
    await authorizationServer?.close()
    await harness?.close()
  })
  beforeEach(async () => {
    authorizationServer.setAccessTokenSeconds(3600)
    authorizationServer.setDeny(false)
    await harness.database.db
      .delete(integrationConnections)
      .where(eq(integrationConnections.serviceName, service))
    await harness.database.db.delete(oauthStates)
  })

  it('sends the browser to the auth URL with the code flow, PKCE (S256) and the parameters', async () => {
    const { state, authorizationUrl } = await authorize()
    const url = new URL(authorizationUrl)
    expect(`${url.origin}${url.pathname}`).toBe(authorizationServer.authUrl)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: authorizationServer.clientId,
      redirect_uri: `${callbackPrefix}${service}`,
      state,
      scope: 'read write',
      prompt: 'consent',
      code_challenge_method: 'S256',
    })
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    // Only the state's hash is kept, and the verifier sealed.
    const rows = await harness.database.db.select().from(oauthStates)
    expect(JSON.stringify(rows)).not.toContain(state)
  })

  it('connects: the code is exchanged, the tokens stored sealed, the list says connected', async () => {
    expect((await list()).find((entry) => entry.service_name === service)?.connected).toBe(false)
    const { callback: callbackUrl } = await authorize()
    expect(callbackUrl.searchParams.get('iss')).toBe(authorizationServer.issuer)
    expect(await callback(callbackUrl)).toEqual({ connected: service, error: null })
    const { row, accessToken, refreshToken } = await storedTokens()
    expect(JSON.stringify(row)).not.toContain(accessToken)
    expect(await authorizationServer.isActive(accessToken, 'access')).toBe(true)
    expect(refreshToken).toBeTruthy()
    const entry = (await list()).find((item) => item.service_name === service)
    expect(entry).toMatchObject({
      connected: true,
      needs_reconnect: false,
      scopes: ['read', 'write'],
    })
    const answer = await token()
    expect(await answer.json()).toMatchObject({ access_token: accessToken })
  })

  it('hides the connection from another organization', async () => {
    expect((await connect()).connected).toBe(service)
    const theirs = (await list(outsider, otherOrganizationId)).find(
      (entry) => entry.service_name === service,
    )
    expect(theirs?.connected).toBe(false)
    expect((await token(outsider, otherOrganizationId)).status).toBe(404)
    // Naming organization A does not help an outsider.
    expect((await token(outsider, organizationId)).status).toBe(403)
    expect(
      (
        await as(
          outsider,
          `/api/integrations/${service}`,
          { method: 'DELETE' },
          otherOrganizationId,
        )
      ).status,
    ).toBe(404)
    expect(await connectionRows()).toHaveLength(1)
  })

  it('refreshes an expired access token and stores the rotated refresh token', async () => {
    await connect()
    await expireStoredToken()
    const before = await storedTokens()
    const answer = (await (await token()).json()) as { access_token: string }
    expect(answer.access_token).not.toBe(before.accessToken)
    const after = await storedTokens()
    expect(after.accessToken).toBe(answer.access_token)
    expect(after.refreshToken).not.toBe(before.refreshToken)
    expect(await authorizationServer.isActive(answer.access_token, 'access')).toBe(true)
    // The old refresh token is spent: the server rotated it.
    expect(await authorizationServer.isActive(before.refreshToken ?? '', 'refresh')).toBe(false)
  })

  it('keeps a fresh token without asking the server', async () => {
    await connect()
    const first = (await (await token()).json()) as { access_token: string }
    const second = (await (await token()).json()) as { access_token: string }
    expect(second.access_token).toBe(first.access_token)
  })

  it('uses a short-lived token for the first half of its life', async () => {
    authorizationServer.setAccessTokenSeconds(40)
    await connect()
    const first = (await (await token()).json()) as { access_token: string }
    const second = (await (await token()).json()) as { access_token: string }
    expect(second.access_token).toBe(first.access_token)
  })

  it('refreshes once for concurrent callers (a rotated refresh token is used once)', async () => {
    await connect()
    await expireStoredToken()
    const answers = await Promise.all([token(), token(), token()])
    const bodies = await Promise.all(answers.map((answer) => answer.json()))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(
      new Set(bodies.map((body) => (body as { access_token: string }).access_token)).size,
    ).toBe(1)
    expect((await storedTokens()).row.needsReconnect).toBe(false)
  })

  it('marks the connection as needing reconnection when the refresh is refused', async () => {
    await connect()
    await expireStoredToken()
    const { refreshToken } = await storedTokens()
    const stored = await authorizationServer.provider.RefreshToken.find(refreshToken ?? '')
    await stored?.destroy()
    const answer = await token()
    expect(answer.status).toBe(409)
    expect(((await answer.json()) as { error: string }).error).toMatch(/connected again/)
    const entry = (await list()).find((item) => item.service_name === service)
    expect(entry).toMatchObject({ connected: false, needs_reconnect: true })
    // Connecting again clears it.
    expect((await connect()).connected).toBe(service)
    expect((await list()).find((item) => item.service_name === service)?.connected).toBe(true)
  })

  it('revokes at the revoke URL on disconnect, then deletes the tokens', async () => {
    await connect()
    const { accessToken, refreshToken } = await storedTokens()
    const answer = await disconnect()
    expect(answer.status).toBe(200)
    expect(await connectionRows()).toHaveLength(0)
    expect(await authorizationServer.isActive(accessToken, 'access')).toBe(false)
    expect(await authorizationServer.isActive(refreshToken ?? '', 'refresh')).toBe(false)
    expect((await disconnect()).status).toBe(404)
  })

  it('keeps the tokens and says so when the revocation fails', async () => {
    await connect()
    // On the same origin: a revoke URL moved to another one would drop the connection instead.
    await setRevokeUrl(`${new URL(authorizationServer.revokeUrl).origin}/no-such-revoke`)
    try {
      const answer = await disconnect()
      expect(answer.status).toBe(502)
      expect(await answer.json()).toEqual({
        error: 'Failed to revoke integration. Please try again.',
      })
      expect(await connectionRows()).toHaveLength(1)
    } finally {
      await setRevokeUrl(authorizationServer.revokeUrl)
    }
    expect((await disconnect()).status).toBe(200)
  })

  it('sends neither the secret nor the tokens to a token or revoke URL moved to another host', async () => {
    await connect()
    const moved = authorizationServer.revokeUrl.replace('127.0.0.1', 'localhost')
    const [current] = (await (
      await harness.request('/api/admin/integrations', { user: admin })
    ).json()) as Record<string, unknown>[]
    const edit = (body: Record<string, unknown>) =>
      harness.request(`/api/admin/integrations/${service}`, {
        method: 'PUT',
        user: admin,
        body: JSON.stringify({ ...current, ...body }),
      })
    const kept = await edit({ revoke_url: moved, client_secret: '' })
    expect(kept.status).toBe(400)
    expect(await kept.json()).toEqual({ error: SECRET_FOR_NEW_HOST })
    expect(await connectionRows()).toHaveLength(1)
    const { accessToken } = await storedTokens()
    const given = await edit({ revoke_url: moved, client_secret: authorizationServer.clientSecret })
    expect(given.status).toBe(200)
    // The connection is gone: nothing is left to refresh or revoke at the new host.
    expect(await connectionRows()).toHaveLength(0)
    expect((await token()).status).toBe(404)
    expect((await disconnect()).status).toBe(404)
    expect(await authorizationServer.isActive(accessToken, 'access')).toBe(true)
    // Back on an origin it had, the stored secret is kept again.
    await setRevokeUrl(authorizationServer.revokeUrl)
  })

  it('refuses a replayed state and stores nothing the second time', async () => {
    const { callback: callbackUrl } = await authorize()
    expect((await callback(callbackUrl)).connected).toBe(service)
    await harness.database.db.delete(integrationConnections)
    const replay = await callback(callbackUrl)
    expect(replay.error).toMatch(/invalid, expired or already used/)
    expect(await connectionRows()).toHaveLength(0)
  })

  it('refuses an expired state', async () => {
    const { callback: callbackUrl } = await authorize()
    await harness.database.db.update(oauthStates).set({ expiresAt: new Date(Date.now() - 1000) })
    expect((await callback(callbackUrl)).error).toMatch(/invalid, expired or already used/)
    expect(await connectionRows()).toHaveLength(0)
  })

  it('refuses a state finished by another user, or without a session', async () => {
    const first = await authorize(member)
    expect((await callback(first.callback, admin)).error).toMatch(/invalid, expired/)
    const second = await authorize(member)
    expect((await callback(second.callback, null)).error).toMatch(/invalid, expired/)
    expect(await connectionRows()).toHaveLength(0)
  })

  it('refuses a state whose user has left the organization since', async () => {
    const leaver = await harness.signUp()
    await harness.addMember(organizationId, admin, leaver)
    const { callback: callbackUrl } = await authorize(leaver)
    await harness.database.db.delete(membershipRows).where(eq(membershipRows.userId, leaver.id))
    expect((await callback(callbackUrl, leaver)).error).toMatch(/invalid, expired/)
    expect(await connectionRows()).toHaveLength(0)
  })

  it('refuses an unknown state or none', async () => {
    const { callback: callbackUrl } = await authorize()
    callbackUrl.searchParams.set('state', 'forged')
    expect((await callback(callbackUrl)).error).toMatch(/invalid, expired/)
    callbackUrl.searchParams.delete('state')
    expect((await callback(callbackUrl)).error).toMatch(/invalid, expired/)
    expect(await connectionRows()).toHaveLength(0)
  })

  it('refuses a callback whose iss names another server (mix-up)', async () => {
    const { callback: callbackUrl } = await authorize()
    callbackUrl.searchParams.set('iss', 'https://attacker.example')
    expect((await callback(callbackUrl)).error).toBe(
      'Could not complete the connection to Tracker: please try again',
    )
    expect(await connectionRows()).toHaveLength(0)
  })

  it('says so when the user denies consent, and stores nothing', async () => {
    authorizationServer.setDeny(true)
    const { callback: callbackUrl } = await authorize()
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied')
    expect((await callback(callbackUrl)).error).toBe('Access to Tracker was not granted')
    expect(await connectionRows()).toHaveLength(0)
  })

  it('fails the exchange when the code verifier does not match: PKCE is checked by the server', async () => {
    const { callback: callbackUrl } = await authorize()
    const [stateRow] = await harness.database.db.select().from(oauthStates)
    const { seal, stateOwner } = await import('./sealing.ts')
    const keyring = harness.created.integrationDeps.keyring
    const forged = seal(
      keyring,
      stateOwner(stateRow?.stateHash ?? ''),
      'code_verifier',
      'x'.repeat(43),
    )
    await harness.database.db.update(oauthStates).set({ codeVerifier: forged })
    expect((await callback(callbackUrl)).error).toMatch(/Could not complete the connection/)
    expect(await connectionRows()).toHaveLength(0)
  })

  it('answers 404 for an unknown integration', async () => {
    const response = await as(member, '/api/oauth/state', {
      method: 'POST',
      body: JSON.stringify({ integration_name: 'nothing-here' }),
    })
    expect(response.status).toBe(404)
  })
})
