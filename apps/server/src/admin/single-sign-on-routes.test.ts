import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { schema } from '@sprout/db/schema.ts'
import { findFreePort } from '@sprout/devbox/drivers/local/processes/free-port.ts'
import {
  SINGLE_SIGN_ON_MESSAGES,
  type SingleSignOnView,
} from '@sprout/protocol/api/single-sign-on.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installProvider } from '../auth/single-sign-on.ts'
import { createSingleSignOn } from '../auth/single-sign-on-settings.ts'
import { createKeyring, type VaultKeyring } from '../sealing/master-keys.ts'
import { createInstallationSettings } from '../settings/installation-settings.ts'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'
import { startOpenIdProvider, type TestOpenIdProvider } from '../testing/openid-provider.ts'
import { signInWithSingleSignOn } from '../testing/single-sign-on-flow.ts'

// docs/product/admin.md "Access tab": the admin's single sign-on, applied without a restart.

const adminEmail = 'routes-admin@example.com'
let identityProvider: TestOpenIdProvider
let harness: TestApp
let admin: TestUser
let member: TestUser

beforeAll(async () => {
  const publicUrl = `http://localhost:${await findFreePort()}`
  identityProvider = await startOpenIdProvider({
    redirectUris: [`${publicUrl}/api/auth/callback/sso`],
  })
  harness = await createTestApp({ PUBLIC_URL: publicUrl, ADMIN_EMAILS: adminEmail })
  admin = await harness.signUp(adminEmail)
  member = await harness.signUp()
})
afterAll(async () => {
  await harness?.close()
  await identityProvider?.close()
})

const configure = (user: TestUser, body: unknown, method = 'PUT') =>
  harness.request('/api/admin/single-sign-on', {
    method,
    user,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

const view = async () =>
  (await (
    await harness.request('/api/admin/single-sign-on', { user: admin })
  ).json()) as SingleSignOnView

const offered = async () =>
  (
    (await (await harness.request('/api/sign-in-options')).json()) as {
      singleSignOn: { name: string } | null
    }
  ).singleSignOn

const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error

const settings = () => ({
  issuer: identityProvider.issuer,
  clientId: identityProvider.clientId,
  clientSecret: identityProvider.clientSecret,
  name: 'Acme ID',
})

async function signInAsNewUser() {
  const email = `runtime-${crypto.randomUUID().slice(0, 8)}@example.com`
  identityProvider.loginAs(identityProvider.addAccount({ email, emailVerified: true, name: 'R' }))
  const result = await signInWithSingleSignOn(harness)
  return { email, user: result.user, location: result.location }
}

describe('the admin single sign-on routes', () => {
  it('answer 401 without a session and 403 to a member who is not an admin', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const body = method === 'PUT' ? JSON.stringify(settings()) : undefined
      const anonymous = await harness.request('/api/admin/single-sign-on', { method, body })
      expect(anonymous.status).toBe(401)
      const forbidden = await harness.request('/api/admin/single-sign-on', {
        method,
        user: member,
        body,
      })
      expect(forbidden.status).toBe(403)
    }
    expect((await view()).source).toBe('none')
  })

  it('start with nothing configured, and give the callback URL to register', async () => {
    expect(await view()).toEqual({
      source: 'none',
      issuer: null,
      clientId: null,
      name: null,
      hasSecret: false,
      callbackUrl: `${harness.config.publicUrl}/api/auth/callback/sso`,
    })
    expect(await offered()).toBeNull()
    const refused = await harness.request('/api/auth/sign-in/social', {
      method: 'POST',
      body: JSON.stringify({ provider: 'sso', callbackURL: '/' }),
    })
    expect(refused.status).toBeGreaterThanOrEqual(400)
  })

  it('refuse an issuer that is not an address, or plain http away from this machine', async () => {
    for (const issuer of ['ftp://idp.example', 'http://idp.example', 'not a url']) {
      const response = await configure(admin, { ...settings(), issuer })
      expect(response.status).toBe(400)
      expect(await errorOf(response)).toContain(SINGLE_SIGN_ON_MESSAGES.issuerFormat)
    }
    expect((await view()).source).toBe('none')
  })

  it('refuse an issuer whose discovery document does not answer or names another issuer', async () => {
    const impostor = http.createServer((_request, response) => {
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify({
          issuer: 'https://elsewhere.example',
          authorization_endpoint: 'https://elsewhere.example/auth',
          token_endpoint: 'https://elsewhere.example/token',
          jwks_uri: 'https://elsewhere.example/jwks',
        }),
      )
    })
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', () => resolve()))
    const impostorIssuer = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`
    try {
      const silent = await configure(admin, { ...settings(), issuer: 'http://127.0.0.1:1' })
      expect(silent.status).toBe(400)
      expect(await errorOf(silent)).toBe(
        SINGLE_SIGN_ON_MESSAGES.discoveryFailed('http://127.0.0.1:1'),
      )
      const mixedUp = await configure(admin, { ...settings(), issuer: impostorIssuer })
      expect(mixedUp.status).toBe(400)
      expect(await errorOf(mixedUp)).toBe(
        SINGLE_SIGN_ON_MESSAGES.issuerMismatch(impostorIssuer, 'https://elsewhere.example'),
      )
    } finally {
      impostor.close()
    }
    expect((await view()).source).toBe('none')
  })

  it('refuse malformed bodies with a clear 4xx and change nothing', async () => {
    const cases = [
      '{"issuer":',
      JSON.stringify({ ...settings(), extra: true }),
      JSON.stringify({ ...settings(), name: '' }),
      JSON.stringify({ ...settings(), clientId: 'x'.repeat(501) }),
      JSON.stringify({ ...settings(), name: 'A\u0000B' }),
      JSON.stringify({ ...settings(), clientSecret: 's'.repeat(3_000_000) }),
    ]
    for (const body of cases) {
      const response = await configure(admin, body)
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
      expect(await errorOf(response)).toBeTruthy()
    }
    expect((await view()).source).toBe('none')
  })

  it('apply the admin configuration at once, never showing the client secret', async () => {
    const saved = await configure(admin, settings())
    expect(saved.status).toBe(200)
    const text = await saved.text()
    expect(text).not.toContain(identityProvider.clientSecret)
    expect(JSON.parse(text)).toMatchObject({ source: 'admin', name: 'Acme ID', hasSecret: true })
    expect(JSON.stringify(await view())).not.toContain(identityProvider.clientSecret)
    // Stored sealed: the database holds no readable secret either.
    const [row] = await harness.database.db
      .select()
      .from(schema.installationSettings)
      .where(eq(schema.installationSettings.key, 'single-sign-on'))
    expect(JSON.stringify(row?.value)).not.toContain(identityProvider.clientSecret)

    expect(await offered()).toEqual({ name: 'Acme ID' })
    const signedIn = await signInAsNewUser()
    expect(signedIn.user?.email).toBe(signedIn.email)
  })

  it('keep the stored secret when the admin leaves it blank for the same client', async () => {
    const renamed = await configure(admin, { ...settings(), clientSecret: '', name: 'Acme' })
    expect(await renamed.json()).toMatchObject({ name: 'Acme', hasSecret: true })
    expect(await offered()).toEqual({ name: 'Acme' })
    // The token exchange still authenticates with the kept secret.
    expect((await signInAsNewUser()).user).toBeDefined()
  })

  it('apply the stored configuration again at start', async () => {
    await installProvider(harness.auth, undefined)
    await harness.created.singleSignOn.start()
    expect((await signInAsNewUser()).user).toBeDefined()
  })

  it('send no kept secret to another client', async () => {
    const other = await configure(admin, { ...settings(), clientId: 'another', clientSecret: '' })
    expect(await other.json()).toMatchObject({ clientId: 'another', hasSecret: false })
  })

  it('remove it: no button, and sign-in with it is refused', async () => {
    const removed = await configure(admin, undefined, 'DELETE')
    expect(removed.status).toBe(200)
    expect((await removed.json()) as SingleSignOnView).toMatchObject({ source: 'none' })
    expect(await offered()).toBeNull()
    const refused = await harness.request('/api/auth/sign-in/social', {
      method: 'POST',
      body: JSON.stringify({ provider: 'sso', callbackURL: '/' }),
    })
    expect(refused.status).toBeGreaterThanOrEqual(400)
  })
})

describe('vault key rotation', () => {
  it('moves a secret sealed under an older key to the current one at start', async () => {
    const olderKey = randomBytes(32).toString('base64')
    const currentKey = randomBytes(32).toString('base64')
    const withKeys = (keyring: VaultKeyring) =>
      createSingleSignOn({
        auth: harness.auth,
        settings: createInstallationSettings(harness.database.db),
        keyring,
        config: harness.config,
      })
    await withKeys(createKeyring(olderKey, [])).save(settings())
    const rotated = createKeyring(currentKey, [olderKey])
    await withKeys(rotated).start()
    const [row] = await harness.database.db
      .select()
      .from(schema.installationSettings)
      .where(eq(schema.installationSettings.key, 'single-sign-on'))
    const stored = row?.value as { configuration: { clientSecret: { keyId: string } } }
    expect(stored.configuration.clientSecret.keyId).toBe(rotated.current.id)
    // The secret still opens: the token exchange authenticates with it.
    expect((await signInAsNewUser()).user).toBeDefined()
    await withKeys(rotated).remove()
  })
})

describe('an environment configuration under the admin one', () => {
  it('shows as the environment, is overridden by the admin and comes back on removal', async () => {
    const publicUrl = `http://localhost:${await findFreePort()}`
    const environment = await createTestApp({
      PUBLIC_URL: publicUrl,
      ADMIN_EMAILS: adminEmail,
      OIDC_ISSUER: identityProvider.issuer,
      OIDC_CLIENT_ID: identityProvider.clientId,
      OIDC_CLIENT_SECRET: identityProvider.clientSecret,
      OIDC_NAME: 'From env',
    })
    try {
      const owner = await environment.signUp(adminEmail)
      const call = (method: string, body?: unknown) =>
        environment.request('/api/admin/single-sign-on', {
          method,
          user: owner,
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      const shown = await (await call('GET')).text()
      expect(shown).not.toContain(identityProvider.clientSecret)
      expect(JSON.parse(shown)).toMatchObject({ source: 'environment', name: 'From env' })
      expect(await (await call('PUT', { ...settings(), name: 'From admin' })).json()).toMatchObject(
        {
          source: 'admin',
        },
      )
      expect(await (await environment.request('/api/sign-in-options')).json()).toMatchObject({
        singleSignOn: { name: 'From admin' },
      })
      expect(await (await call('DELETE')).json()).toMatchObject({
        source: 'environment',
        name: 'From env',
        hasSecret: true,
      })
      expect(await (await environment.request('/api/sign-in-options')).json()).toMatchObject({
        singleSignOn: { name: 'From env' },
      })
    } finally {
      await environment.close()
    }
  })
})
