import { type Browser, expect, type Page, test } from '@playwright/test'
import { INTEGRATION_ERROR_MESSAGES } from '@sprout/protocol/api/integrations.ts'
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from '@sprout/server/testing/oauth-server.ts'
import {
  DEFAULT_PICKER_SCRIPT_URL,
  PICKER_LOAD_FAILED,
  PICKER_TITLE,
} from '@sprout/web/features/integrations/spreadsheet-picker.ts'
import { IntegrationsAdminTab } from './pages/integrations-admin-tab.ts'
import { SettingsPage } from './pages/settings-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { collectAlerts } from './support/alerts.ts'
import { expectPath } from './support/location.ts'
import { signUpNewUser } from './support/session.ts'
import { standInPickerScript } from './support/stand-in-picker.ts'
import { adminUser } from './support/users.ts'

/** Integration definitions are shared by every test on the server: each test has its own name. */
const uniqueServiceName = () => `e2e-${Date.now().toString(36)}${test.info().parallelIndex}`

/** The admin panel needs no organization: sign in straight into the Integrations tab. */
async function signInToIntegrationsTab(page: Page): Promise<IntegrationsAdminTab> {
  const admin = new IntegrationsAdminTab(page)
  await admin.goto()
  await new SignInPage(page).signIn(adminUser)
  await expectPath(page, '/admin')
  await expect(admin.heading).toBeVisible()
  return admin
}

// Each test signs an admin in, signs a user up in a second browser and goes through the consent
// screen: 16–30 s on an idle 2-core machine, past the suite's 30 s when the machine is busy.
test.describe.configure({ timeout: 90_000 })

let authorizationServer: TestAuthorizationServer | undefined
test.afterEach(async () => {
  await authorizationServer?.close()
  authorizationServer = undefined
})

/** The admin adds an integration pointing at a fresh authorization server of the test's own. */
async function defineIntegration(
  page: Page,
  baseURL: string | undefined,
  options: { serviceName: string; preset?: 'google-sheets'; scopes: string },
): Promise<TestAuthorizationServer> {
  const server = await startAuthorizationServer({
    redirectUris: [`${baseURL}/api/oauth/callback/${options.serviceName}`],
  })
  authorizationServer = server
  const admin = await signInToIntegrationsTab(page)
  await admin.addButton.click()
  if (options.preset) await admin.form.getByLabel('Preset').selectOption(options.preset)
  await admin.fill({
    serviceName: options.serviceName,
    displayName: options.serviceName,
    clientId: server.clientId,
    clientSecret: server.clientSecret,
    authUrl: server.authUrl,
    tokenUrl: server.tokenUrl,
    revokeUrl: server.revokeUrl,
    scopes: options.scopes,
    additionalParams: '{}',
  })
  await admin.save()
  await expect(admin.form).toBeHidden()
  await expect(admin.row(options.serviceName)).toContainText(new URL(server.authUrl).host)
  return server
}

/** A new user, in a browser of their own, on Settings, where the integration is not connected. */
async function newUserOnSettings(browser: Browser, name: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  const alerts = collectAlerts(page)
  await signUpNewUser(page, 'Connector')
  const callbackUrls: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/api/oauth/callback/')) callbackUrls.push(request.url())
  })
  const settings = new SettingsPage(page)
  await settings.goto()
  await expect(settings.status(name)).toHaveText('Not Connected')
  return { context, page, settings, alerts, callbackUrls }
}

/** Connect, through the authorization server's consent (approved at once). */
async function connect(settings: SettingsPage, name: string) {
  await settings.button(name, 'Connect').click()
  await expect(settings.status(name)).toHaveText('Connected')
}

test('the admin form says what each field needs', async ({ page }) => {
  const admin = await signInToIntegrationsTab(page)
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
  const server = await defineIntegration(page, baseURL, { serviceName, scopes: ' read, ,write ' })
  await expect(new IntegrationsAdminTab(page).row(serviceName)).toContainText('read, write')

  const user = await newUserOnSettings(browser, serviceName)
  const { settings } = user
  await expect(settings.card(serviceName)).toContainText('Read / write permissions')

  // The user says no on the consent screen: back on Settings, told so, still not connected.
  server.setDeny(true)
  await settings.button(serviceName, 'Connect').click()
  await expect(user.page.getByRole('alert')).toHaveText(
    INTEGRATION_ERROR_MESSAGES.consentDenied(serviceName),
  )
  await expect(settings.status(serviceName)).toHaveText('Not Connected')
  await expect.poll(() => new URL(user.page.url()).search).toBe('')

  server.setDeny(false)
  await connect(settings, serviceName)
  await expect(user.page.getByText(`${serviceName} is connected.`)).toBeVisible()
  // The callback's message is shown once: the address is back to plain /settings.
  await expect.poll(() => new URL(user.page.url()).search).toBe('')

  // The same callback again (a replayed state) is refused with a clear message.
  expect(user.callbackUrls).toHaveLength(2)
  const callback = new URL(user.callbackUrls[1] ?? '')
  expect(callback.searchParams.get('iss')).toBe(server.issuer)
  await user.page.goto(callback.toString())
  await expect(user.page.getByRole('alert')).toHaveText(INTEGRATION_ERROR_MESSAGES.badState)
  await expect(settings.status(serviceName)).toHaveText('Connected')

  await settings.button(serviceName, 'Disconnect').click()
  await expect(settings.disconnectDialog).toContainText(
    `Are you sure you want to revoke access to ${serviceName}?`,
  )
  await settings.disconnectDialog.getByRole('button', { name: 'Disconnect' }).click()
  await expect(settings.status(serviceName)).toHaveText('Not Connected')
  await user.page.reload()
  await expect(settings.status(serviceName)).toHaveText('Not Connected')
  expect(user.alerts).toEqual([])
  await user.context.close()
})

test('the spreadsheet integration picks files in the Picker and says how many', async ({
  page,
  browser,
  baseURL,
}) => {
  const serviceName = uniqueServiceName()
  await defineIntegration(page, baseURL, { serviceName, preset: 'google-sheets', scopes: 'read' })
  const user = await newUserOnSettings(browser, serviceName)
  const { settings } = user
  await expect(settings.card(serviceName)).toContainText('File-specific access')
  await connect(settings, serviceName)

  // Without the Picker API's script: the alert, nothing else.
  await user.page.route(DEFAULT_PICKER_SCRIPT_URL, (route) => route.abort())
  await settings.button(serviceName, 'Select Files').click()
  await expect.poll(() => user.alerts).toEqual([PICKER_LOAD_FAILED])

  await user.page.unroute(DEFAULT_PICKER_SCRIPT_URL)
  await user.page.route(DEFAULT_PICKER_SCRIPT_URL, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: standInPickerScript }),
  )
  await settings.button(serviceName, 'Select Files').click()
  const picker = user.page.getByRole('dialog', { name: PICKER_TITLE })
  await expect(picker).toHaveAttribute('data-multiselect', 'true')
  await expect(picker).toHaveAttribute('data-token', /\S/)
  await picker.getByLabel('Budget').check()
  await picker.getByLabel('Roadmap').check()
  await picker.getByRole('button', { name: 'Select' }).click()
  const banner = user.page.getByText('Successfully granted access to 2 spreadsheet(s)')
  await expect(banner).toBeVisible()
  await expect(banner).toBeHidden({ timeout: 15_000 })
  expect(user.alerts).toEqual([PICKER_LOAD_FAILED])
  await user.context.close()
})
