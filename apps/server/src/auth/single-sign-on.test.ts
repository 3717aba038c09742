import { schema } from '@sprout/db/schema.ts'
import { findFreePort } from '@sprout/devbox/drivers/local/processes/free-port.ts'
import { SINGLE_SIGN_ON_MESSAGES } from '@sprout/protocol/api/single-sign-on.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/app-harness.ts'
import { startOpenIdProvider, type TestOpenIdProvider } from '../testing/openid-provider.ts'
import {
  openCallback,
  reachCallback,
  signInWithSingleSignOn,
  startSingleSignOn,
} from '../testing/single-sign-on-flow.ts'
import { signUpRefusals } from './sign-up-rules.ts'

// docs/product/auth.md "Single sign-on", against a real OpenID Connect provider.

const adminEmail = 'sso-admin@example.com'
let identityProvider: TestOpenIdProvider
let harness: TestApp

beforeAll(async () => {
  const publicUrl = `http://localhost:${await findFreePort()}`
  identityProvider = await startOpenIdProvider({
    redirectUris: [`${publicUrl}/api/auth/callback/sso`],
  })
  harness = await createTestApp({
    PUBLIC_URL: publicUrl,
    ADMIN_EMAILS: adminEmail,
    OIDC_ISSUER: identityProvider.issuer,
    OIDC_CLIENT_ID: identityProvider.clientId,
    OIDC_CLIENT_SECRET: identityProvider.clientSecret,
    OIDC_NAME: 'Acme ID',
  })
})
afterAll(async () => {
  await harness?.close()
  await identityProvider?.close()
})

const usersWithEmail = (email: string) =>
  harness.database.db.select().from(schema.user).where(eq(schema.user.email, email))

const uniqueEmail = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`

describe('single sign-on configured by the environment', () => {
  it('offers the button by its name on the sign-in screens', async () => {
    const response = await harness.request('/api/sign-in-options')
    const options = (await response.json()) as { singleSignOn: { name: string } | null }
    expect(options.singleSignOn).toEqual({ name: 'Acme ID' })
  })

  it('creates the account from the claims the first time and reuses it the second', async () => {
    const email = uniqueEmail('grace')
    identityProvider.loginAs(
      identityProvider.addAccount({ email, emailVerified: true, name: 'Grace Hopper' }),
    )
    const first = await signInWithSingleSignOn(harness)
    expect(first.location.pathname).toBe('/')
    expect(first.user).toMatchObject({ email, name: 'Grace Hopper', emailVerified: true })

    // PKCE: the authorization request carried a S256 challenge (decision 018's rule too).
    const request = identityProvider.authorizationRequests.at(-1)
    expect(request?.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    expect(request?.searchParams.get('code_challenge_method')).toBe('S256')
    expect(request?.searchParams.get('scope')?.split(' ')).toContain('openid')

    const second = await signInWithSingleSignOn(harness)
    expect(second.user?.id).toBe(first.user?.id)
    expect(await usersWithEmail(email)).toHaveLength(1)
    // Both sign-ins are in the audit log, as single sign-on's (docs/product/audit.md).
    const signIns = await harness.database.db
      .select()
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.actorId, first.user?.id ?? ''))
    expect(signIns.map((event) => [event.action, event.details?.method])).toEqual([
      ['sign-in', 'sso'],
      ['sign-in', 'sso'],
    ])

    // The provider's access token is stored encrypted (hex), not as the provider issued it.
    const [account] = await harness.database.db
      .select()
      .from(schema.account)
      .where(eq(schema.account.userId, first.user?.id ?? ''))
    expect(account?.providerId).toBe('sso')
    expect(account?.accessToken).toMatch(/^[0-9a-f]{64,}$/)
  })

  it('links an existing account when both sides have confirmed the address', async () => {
    const email = uniqueEmail('linked')
    const existing = await harness.signUp(email)
    await harness.database.db
      .update(schema.user)
      .set({ emailVerified: true })
      .where(eq(schema.user.id, existing.id))
    identityProvider.loginAs(identityProvider.addAccount({ email, emailVerified: true, name: 'L' }))
    const signedIn = await signInWithSingleSignOn(harness)
    expect(signedIn.user?.id).toBe(existing.id)
  })

  it('does not link an existing account when the provider has not confirmed the address', async () => {
    const email = uniqueEmail('unverified')
    const existing = await harness.signUp(email)
    await harness.database.db
      .update(schema.user)
      .set({ emailVerified: true })
      .where(eq(schema.user.id, existing.id))
    identityProvider.loginAs(
      identityProvider.addAccount({ email, emailVerified: false, name: 'U' }),
    )
    const refused = await signInWithSingleSignOn(harness)
    expect(refused.location.pathname).toBe('/signin')
    expect(refused.location.searchParams.get('error')).toBe('account_not_linked')
    expect(refused.sessionCookie).toBe('')
    const accounts = await harness.database.db
      .select()
      .from(schema.account)
      .where(eq(schema.account.userId, existing.id))
    expect(accounts.map((account) => account.providerId)).toEqual(['credential'])
  })

  it('refuses a callback URL used a second time (state replay)', async () => {
    const email = uniqueEmail('replay')
    identityProvider.loginAs(identityProvider.addAccount({ email, emailVerified: true, name: 'R' }))
    const first = await signInWithSingleSignOn(harness)
    expect(first.user?.email).toBe(email)
    const replayed = await openCallback(harness, first.callback, first.stateCookie)
    expect(replayed.status).toBe(302)
    expect(replayed.location.pathname).toBe('/signin')
    expect(replayed.location.searchParams.get('error')).toMatch(/^state_/)
    expect(replayed.sessionCookie).toBe('')
  })

  it('refuses a callback opened in another browser than the one that started it (login CSRF)', async () => {
    const email = uniqueEmail('csrf')
    identityProvider.loginAs(identityProvider.addAccount({ email, emailVerified: true, name: 'C' }))
    const { authorizationUrl } = await startSingleSignOn(harness)
    const callback = await reachCallback(harness, authorizationUrl)
    const victim = await openCallback(harness, callback, '')
    expect(victim.location.pathname).toBe('/signin')
    expect(victim.location.searchParams.get('error')).toMatch(/^state_/)
    expect(victim.sessionCookie).toBe('')
    expect(await usersWithEmail(email)).toHaveLength(0)
  })

  it('refuses a callback whose iss names another issuer (mix-up)', async () => {
    const email = uniqueEmail('mixup')
    identityProvider.loginAs(identityProvider.addAccount({ email, emailVerified: true, name: 'M' }))
    const { authorizationUrl, stateCookie } = await startSingleSignOn(harness)
    const callback = await reachCallback(harness, authorizationUrl)
    expect(callback.searchParams.get('iss')).toBe(identityProvider.issuer)
    callback.searchParams.set('iss', 'https://attacker.example')
    const refused = await openCallback(harness, callback, stateCookie)
    expect(refused.location.pathname).toBe('/signin')
    expect(refused.location.searchParams.get('error')).toBe('issuer_mismatch')
    expect(refused.sessionCookie).toBe('')
    expect(await usersWithEmail(email)).toHaveLength(0)
  })

  it('creates no account the sign-up rules refuse, and says why on /signin', async () => {
    const admin = await harness.signUp(adminEmail)
    const closed = await harness.request('/api/admin/sign-up-rules', {
      method: 'PUT',
      user: admin,
      body: JSON.stringify({ mode: 'closed', domains: [] }),
    })
    expect(closed.status).toBe(200)
    try {
      const email = uniqueEmail('refused')
      identityProvider.loginAs(
        identityProvider.addAccount({ email, emailVerified: true, name: 'X' }),
      )
      const refused = await signInWithSingleSignOn(harness)
      expect(refused.location.pathname).toBe('/signin')
      expect(refused.location.searchParams.get('error_description')).toBe(signUpRefusals.closed)
      expect(refused.sessionCookie).toBe('')
      expect(await usersWithEmail(email)).toHaveLength(0)
    } finally {
      await harness.request('/api/admin/sign-up-rules', {
        method: 'PUT',
        user: admin,
        body: JSON.stringify({ mode: 'open', domains: [] }),
      })
    }
  })
})

describe('SSO_ONLY', () => {
  it('refuses password sign-in and sign-up while single sign-on is offered', async () => {
    const publicUrl = `http://localhost:${await findFreePort()}`
    const ssoOnly = await createTestApp({
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: identityProvider.issuer,
      OIDC_CLIENT_ID: identityProvider.clientId,
      OIDC_NAME: 'Acme ID',
      SSO_ONLY: 'true',
    })
    try {
      const options = await (await ssoOnly.request('/api/sign-in-options')).json()
      expect(options).toMatchObject({ ssoOnly: true, singleSignOn: { name: 'Acme ID' } })
      for (const path of ['/api/auth/sign-up/email', '/api/auth/sign-in/email']) {
        const response = await ssoOnly.request(path, {
          method: 'POST',
          body: JSON.stringify({
            email: 'pw@example.com',
            password: 'correct-horse-battery',
            name: 'P',
          }),
        })
        expect(response.status).toBe(403)
        expect(((await response.json()) as { error: string }).error).toBe(
          SINGLE_SIGN_ON_MESSAGES.passwordSignInOff('Acme ID'),
        )
      }
    } finally {
      await ssoOnly.close()
    }
  })
})
