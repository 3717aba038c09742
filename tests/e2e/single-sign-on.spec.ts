import { type Browser, expect, test } from '@playwright/test'
import { SINGLE_SIGN_ON_ERRORS } from '@sprout/protocol/api/single-sign-on.ts'
import {
  startOpenIdProvider,
  type TestOpenIdProvider,
} from '@sprout/server/testing/openid-provider.ts'
import { authTexts } from '@sprout/web/features/auth/auth-texts.ts'
import { IdentityProviderPage } from './pages/identity-provider-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { SingleSignOnSection } from './pages/single-sign-on-section.ts'
import { ownServer, withoutBoxes } from './support/own-server.ts'
import { adminUser } from './support/users.ts'

// docs/product/auth.md "Single sign-on": a Sprout server of its own, configured by OIDC_*, against
// a real OpenID Connect provider on loopback whose login page the browser fills in.
const port = (Number(process.env.E2E_PORT) || 3100) + 300
let identityProvider: TestOpenIdProvider
let server: ReturnType<typeof ownServer>

test.describe.configure({ mode: 'serial' })
test.beforeAll(async () => {
  test.setTimeout(120_000)
  identityProvider = await startOpenIdProvider({
    redirectUris: [`http://localhost:${port}/api/auth/callback/sso`],
  })
  server = ownServer(port, {
    ...withoutBoxes,
    OIDC_ISSUER: identityProvider.issuer,
    OIDC_CLIENT_ID: identityProvider.clientId,
    OIDC_CLIENT_SECRET: identityProvider.clientSecret,
    OIDC_NAME: 'Acme ID',
  })
  await server.start()
})
test.afterAll(async () => {
  await server?.stop()
  await identityProvider?.close()
})
test.afterEach(async ({ page: _page }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(server.output())
})

/** In a browser of its own: 'Sign in with Acme ID', the provider's login page, back signed in. */
async function signInWithAcme(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: server.baseURL })
  const page = await context.newPage()
  await page.goto('/signin')
  await page.getByRole('button', { name: 'Sign in with Acme ID' }).click()
  await new IdentityProviderPage(page).signIn(email)
  await expect.poll(() => new URL(page.url()).origin).toBe(server.baseURL)
  const response = await page.request.get('/api/auth/get-session')
  const session = (await response.json()) as { user: { id: string; email: string; name: string } }
  return { context, page, user: session?.user }
}

test('signs in with the identity provider, and again into the same account', async ({
  browser,
}) => {
  const email = `sso-${Date.now()}@example.com`
  identityProvider.addAccount({ email, emailVerified: true, name: 'Sam Single' })
  const first = await signInWithAcme(browser, email)
  expect(first.user).toMatchObject({ email, name: 'Sam Single' })
  await expect.poll(() => new URL(first.page.url()).pathname).not.toBe('/signin')
  await first.context.close()

  const second = await signInWithAcme(browser, email)
  expect(second.user?.id).toBe(first.user?.id)
  await second.context.close()
})

// The server tests try every spelling (apps/server/src/auth/redirect-targets.test.ts); this is
// the real server, where better-auth's own check is on too and Sprout's answers first.
test('sends the browser nowhere but Sprout afterwards (open redirect)', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL })
  for (const target of [
    'https://attacker.example/',
    '//attacker.example/',
    '/.//attacker.example',
  ]) {
    for (const field of ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL']) {
      const response = await context.request.post('/api/auth/sign-in/social', {
        headers: { origin: server.baseURL },
        data: { provider: 'sso', callbackURL: '/', [field]: target },
      })
      expect(response.status(), `${field} ${target}`).toBe(400)
    }
  }
  await context.close()
})

test('says why an existing account was not linked', async ({ browser }) => {
  const email = `taken-${Date.now()}@example.com`
  const context = await browser.newContext({ baseURL: server.baseURL })
  const page = await context.newPage()
  const signedUp = await page.request.post('/api/auth/sign-up/email', {
    headers: { origin: server.baseURL },
    data: { email, password: 'correct-horse-battery', name: 'Password Pat' },
  })
  expect(signedUp.status()).toBe(200)
  await context.clearCookies()
  identityProvider.addAccount({ email, emailVerified: false, name: 'Impostor' })
  await page.goto('/signin')
  await page.getByRole('button', { name: 'Sign in with Acme ID' }).click()
  await new IdentityProviderPage(page).signIn(email)
  await expect(page.getByRole('alert')).toHaveText(SINGLE_SIGN_ON_ERRORS.account_not_linked ?? '')
  expect(new URL(page.url()).pathname).toBe('/signin')
  await context.close()
})

test('says which sign-up rule refused a new account', async ({ browser }) => {
  const admin = await browser.newContext({ baseURL: server.baseURL })
  // ADMIN_EMAILS lists the admin (tests/e2e/support/server-environment.ts); signing up signs in.
  await admin.request.post('/api/auth/sign-up/email', {
    headers: { origin: server.baseURL },
    data: { email: adminUser.email, password: adminUser.password, name: adminUser.name },
  })
  const setRules = (mode: string) =>
    admin.request.put('/api/admin/sign-up-rules', {
      headers: { origin: server.baseURL },
      data: { mode, domains: [] },
    })
  expect((await setRules('closed')).status()).toBe(200)
  try {
    const email = `newcomer-${Date.now()}@example.com`
    identityProvider.addAccount({ email, emailVerified: true, name: 'Newcomer' })
    const context = await browser.newContext({ baseURL: server.baseURL })
    const page = await context.newPage()
    await page.goto('/signin')
    await page.getByRole('button', { name: 'Sign in with Acme ID' }).click()
    await new IdentityProviderPage(page).signIn(email)
    await expect(page.getByRole('alert')).toHaveText(authTexts.signUpClosed)
    expect(new URL(page.url()).pathname).toBe('/signin')
    await context.close()
  } finally {
    await setRules('open')
    await admin.close()
  }
})

test('the admin renames the button in the Access tab, without a restart', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL })
  const page = await context.newPage()
  // ADMIN_EMAILS lists the admin (tests/e2e/support/server-environment.ts).
  await page.request.post('/api/auth/sign-up/email', {
    headers: { origin: server.baseURL },
    data: { email: adminUser.email, password: adminUser.password, name: adminUser.name },
  })
  await context.clearCookies()
  await page.goto('/signin')
  await new SignInPage(page).signIn(adminUser)
  await expect.poll(() => new URL(page.url()).pathname).not.toBe('/signin')

  const section = new SingleSignOnSection(page)
  await section.goto()
  await expect(section.source).toHaveText(/^Configured by the environment/)
  await expect(section.callbackUrl).toHaveValue(`${server.baseURL}/api/auth/callback/sso`)
  await expect(section.field('Issuer')).toHaveValue(identityProvider.issuer)
  await section.field('Client secret').fill(identityProvider.clientSecret)
  await section.field('Button name').fill('Acme Login')
  await section.save()
  await expect(section.section.getByText('Single sign-on saved.')).toBeVisible()
  await expect(section.source).toHaveText('Configured here.')
  await context.close()

  const visitor = await browser.newContext({ baseURL: server.baseURL })
  const signIn = await visitor.newPage()
  await signIn.goto('/signin')
  await expect(signIn.getByRole('button', { name: 'Sign in with Acme Login' })).toBeVisible()
  await visitor.close()
})

test('SSO_ONLY: the sign-in screens offer the identity provider only', async ({ browser }) => {
  test.setTimeout(150_000)
  const ssoOnly = ownServer(port + 1, {
    OIDC_ISSUER: identityProvider.issuer,
    OIDC_CLIENT_ID: identityProvider.clientId,
    OIDC_CLIENT_SECRET: identityProvider.clientSecret,
    OIDC_NAME: 'Acme ID',
    SSO_ONLY: 'true',
  })
  await ssoOnly.start()
  try {
    const context = await browser.newContext({ baseURL: ssoOnly.baseURL })
    const page = await context.newPage()
    for (const path of ['/signin', '/signup']) {
      await page.goto(path)
      await expect(page.getByRole('button', { name: 'Sign in with Acme ID' })).toBeVisible()
      await expect(page.getByLabel('Password')).toHaveCount(0)
      await expect(page.getByText('or', { exact: true })).toHaveCount(0)
    }
    await context.close()
  } finally {
    await ssoOnly.stop()
  }
})
