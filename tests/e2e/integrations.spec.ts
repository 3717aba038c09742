import { expect, test } from '@playwright/test'
import { INTEGRATION_ERROR_MESSAGES } from '@sprout/protocol/api/integrations.ts'
import { IntegrationsAdminTab } from './pages/integrations-admin-tab.ts'
import { SettingsPage } from './pages/settings-page.ts'
import { collectAlerts } from './support/alerts.ts'
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from './support/authorization-server.ts'
import { signInAsAdmin, signUpNewUser } from './support/session.ts'

/** Integration definitions are shared by every test on the server: each test has its own name. */
const uniqueServiceName = () => `e2e-${Date.now().toString(36)}${test.info().parallelIndex}`

let authorizationServer: AuthorizationServer | undefined
test.afterEach(async () => {
  await authorizationServer?.close()
  authorizationServer = undefined
})

test('the admin form says what each field needs', async ({ page }) => {
  await signInAsAdmin(page)
  const admin = new IntegrationsAdminTab(page)
  await admin.goto()
  await admin.addButton.click()
  await admin.save()
  await expect(admin.field('Service Name')).toHaveAccessibleDescription('Service name is required')
  await expect(admin.field('Client ID')).toHaveAccessibleDescription('Client ID is required')
  await expect(admin.field('Client Secret')).toHaveAccessibleDescription(
    'Client Secret is required',
  )
  await expect(admin.field('Auth URL')).toHaveAccessibleDescription('Auth URL is required')
  await expect(admin.field('Token URL')).toHaveAccessibleDescription('Token URL is required')

  await admin.field('Auth URL').fill('not a url')
  await admin.field('Revoke URL').fill('nor this')
  await admin.field('Additional Parameters').fill('{"prompt":')
  await admin.save()
  await expect(admin.field('Auth URL')).toHaveAccessibleDescription('Invalid URL format')
  await expect(admin.field('Revoke URL')).toHaveAccessibleDescription('Invalid URL format')
  await expect(admin.field('Additional Parameters')).toHaveAccessibleDescription(
    'Invalid JSON format',
  )

  // A preset fills the URLs, scopes and parameters; the admin adds the client's id and secret.
  await admin.form.getByLabel('Preset').selectOption('google-sheets')
  await expect(admin.field('Auth URL')).toHaveValue('https://accounts.google.com/o/oauth2/v2/auth')
  await expect(admin.field('Scopes')).toHaveValue('https://www.googleapis.com/auth/drive.file')
  await admin.form.getByRole('button', { name: 'Cancel' }).click()
  await expect(admin.form).toBeHidden()
})

test('a user connects an integration through its consent screen, then disconnects it', async ({
  page,
  browser,
  baseURL,
}) => {
  const serviceName = uniqueServiceName()
  authorizationServer = await startAuthorizationServer({
    redirectUri: `${baseURL}/api/oauth/callback/${serviceName}`,
    scopes: ['read', 'write'],
  })

  // The admin defines the integration, pointing at the authorization server.
  await signInAsAdmin(page)
  const admin = new IntegrationsAdminTab(page)
  await admin.goto()
  await admin.addButton.click()
  await admin.fill({
    serviceName,
    clientId: authorizationServer.clientId,
    clientSecret: authorizationServer.clientSecret,
    authUrl: authorizationServer.authUrl,
    tokenUrl: authorizationServer.tokenUrl,
    revokeUrl: authorizationServer.revokeUrl,
    scopes: ' read, ,write ',
  })
  await admin.save()
  await expect(admin.form).toBeHidden()
  await expect(admin.row(serviceName)).toContainText(new URL(authorizationServer.authUrl).host)
  await expect(admin.row(serviceName)).toContainText('read, write')

  // A member of another organization connects it from Settings.
  const context = await browser.newContext()
  const userPage = await context.newPage()
  const alerts = collectAlerts(userPage)
  await signUpNewUser(userPage, 'Connector')
  const settings = new SettingsPage(userPage)
  await settings.goto()
  await expect(settings.status(serviceName)).toHaveText('Not Connected')
  await expect(settings.card(serviceName)).toContainText('Read / write permissions')

  const callbackUrls: string[] = []
  userPage.on('request', (request) => {
    if (request.url().includes('/api/oauth/callback/')) callbackUrls.push(request.url())
  })
  await settings.button(serviceName, 'Connect').click()
  await expect(settings.status(serviceName)).toHaveText('Connected')
  await expect(userPage.getByText(`${serviceName} is connected.`)).toBeVisible()
  // The callback's message is shown once: the address is back to plain /settings.
  await expect.poll(() => new URL(userPage.url()).search).toBe('')
  expect(callbackUrls).toHaveLength(1)
  expect(new URL(callbackUrls[0] ?? '').searchParams.get('iss')).toBe(authorizationServer.issuer)

  // The same callback again (a replayed state) is refused with a clear message.
  await userPage.goto(callbackUrls[0] ?? '')
  await expect(userPage.getByRole('alert')).toHaveText(INTEGRATION_ERROR_MESSAGES.badState)
  await expect(settings.status(serviceName)).toHaveText('Connected')

  await settings.button(serviceName, 'Disconnect').click()
  await expect(settings.disconnectDialog).toContainText(
    `Are you sure you want to revoke access to ${serviceName}?`,
  )
  await settings.disconnectDialog.getByRole('button', { name: 'Disconnect' }).click()
  await expect(settings.status(serviceName)).toHaveText('Not Connected')
  await userPage.reload()
  await expect(settings.status(serviceName)).toHaveText('Not Connected')
  expect(alerts).toEqual([])
  await context.close()
})
