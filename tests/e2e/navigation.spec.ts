import { type Browser, expect, type Page, test } from '@playwright/test'
import { AdminPage } from './pages/admin-page.ts'
import { BuilderPage } from './pages/builder-page.ts'
import { DevboxPoolTab } from './pages/devbox-pool-tab.ts'
import { ErrorsPage } from './pages/errors-page.ts'
import { EvaluationsTab } from './pages/evaluations-tab.ts'
import { HomePage } from './pages/home-page.ts'
import { IntegrationsAdminTab } from './pages/integrations-admin-tab.ts'
import { Navbar } from './pages/navbar.ts'
import { OrganizationsPage } from './pages/organizations-page.ts'
import { SettingsPage } from './pages/settings-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import {
  type CreatedApplication,
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { expectPath } from './support/location.ts'
import { signInAsAdmin, signUpNewUser } from './support/session.ts'
import { adminUser } from './support/users.ts'

// Issue 20: every screen of the product is reached from `/` by clicks alone. Not walked here, as
// no click in Sprout leads there: /invitations/{id} and /reset-password, whose links arrive by
// mail or are handed over (organizations.spec.ts opens one), /setup, the first-run link the server
// prints before an admin exists, and /unauthorized, where a forbidden admin call lands
// (placeholder-screens.spec.ts).

/**
 * What the walk needs but cannot click into being, made in a browser of its own: an application
 * with a running dev box, and a conversation the Demo model answered, to evaluate.
 */
async function prepareAdminData(
  browser: Browser,
  conversationTitle: string,
): Promise<CreatedApplication> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await signInAsAdmin(page)
  const application = await createApplicationViaApi(page, uniqueApplicationName('Walk'))
  const organization = await page.request.get('/api/organizations?is_personal=true')
  const { id: organizationId } = (await organization.json()) as { id: string }
  const sent = await page.request.post(`/api/demo/applications/${application.id}/message`, {
    headers: { Origin: new URL(page.url()).origin, 'Organization-ID': organizationId },
    data: { message: conversationTitle, model: 'demo' },
  })
  expect(sent.ok()).toBe(true)
  await context.close()
  return application
}

async function signInByForm(page: Page) {
  await new SignInPage(page).signIn(adminUser)
  const home = new HomePage(page)
  const organizations = new OrganizationsPage(page)
  await expect(home.heading.or(organizations.chooseNotice)).toBeVisible()
  if (await organizations.chooseNotice.isVisible()) await organizations.switchTo('Personal')
  await expect(home.heading).toBeVisible()
}

test('the admin reaches every screen from / by clicks alone', async ({ page, browser }) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 180_000)
  const conversationTitle = `Walk ${Date.now().toString(36)} conversation`
  const application = await prepareAdminData(browser, conversationTitle)
  const navbar = new Navbar(page)
  const home = new HomePage(page)

  // Signed out, / sends to sign-in; the navbar switches between sign-in and sign-up.
  await page.goto('/')
  const signIn = new SignInPage(page)
  await expect(signIn.heading).toBeVisible()
  await expectPath(page, '/signin')
  await navbar.signUpButton.click()
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
  await expectPath(page, '/signup')
  await navbar.signInButton.click()
  await expect(signIn.heading).toBeVisible()
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible()
  await expectPath(page, '/forgot-password')
  await navbar.signInButton.click()
  await expect(signIn.heading).toBeVisible()
  await signInByForm(page)
  await expectPath(page, '/')

  // An exploration, and back.
  await page.getByRole('button', { name: 'Explore an idea' }).click()
  await expect(page.getByRole('heading', { name: 'Exploration Mode' })).toBeVisible()
  await expect(page).toHaveURL(/\/explore\/[^/]+$/)
  await page.getByRole('link', { name: 'Back' }).click()
  await expect(home.heading).toBeVisible()

  // The builder, from the application's card; its preview opens through the dev-box hand-off.
  await home.card(application.name).click()
  await expectPath(page, `/applications/${application.id}/edit`)
  await expect(page.getByTestId('navbar-application-name')).toHaveText(application.name)
  const builder = new BuilderPage(page)
  const handOff = page
    .context()
    .waitForEvent('request', (request) => new URL(request.url()).pathname === '/auth/devbox')
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    builder.openInNewWindowLink.click(),
  ])
  await handOff
  await expect(popup.getByText('Your app starts here.')).toBeVisible({ timeout: 30_000 })
  await popup.close()
  await navbar.brand.click()
  await expect(home.heading).toBeVisible()

  // The user menu's places.
  await navbar.goTo('Account')
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible()
  await expectPath(page, '/account')
  await navbar.manageOrganizations()
  await expect(new OrganizationsPage(page).heading).toBeVisible()
  await expectPath(page, '/organizations')
  await navbar.goTo('Settings')
  await expect(new SettingsPage(page).heading).toBeVisible()
  await expectPath(page, '/settings')
  await navbar.goTo('Error Monitoring')
  await expect(new ErrorsPage(page).heading).toBeVisible()
  await expectPath(page, '/errors')

  // The admin panel and its tabs.
  await navbar.goTo('Admin')
  const admin = new AdminPage(page)
  await expect(page.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible()
  await expect(new IntegrationsAdminTab(page).heading).toBeVisible()
  await expectPath(page, '/admin')
  await admin.tab('Conversation Evaluations').click()
  const evaluations = new EvaluationsTab(page)
  await expect(evaluations.heading).toBeVisible()
  await expectPath(page, '/admin/evals')

  // An evaluation's execution screen: evaluate the prepared conversation and watch it.
  await expect(evaluations.row(conversationTitle)).toBeVisible({ timeout: 30_000 })
  await evaluations.selectBox(conversationTitle).check()
  await evaluations.evaluateButton.click()
  await evaluations.startButton.click()
  await page.getByRole('link', { name: 'Watch each conversation' }).click()
  await expect(evaluations.executionHeading).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/evals\/[^/]+\/execute$/)
  await evaluations.backToEvaluations.click()
  await expect(evaluations.heading).toBeVisible()

  await admin.tab('Devbox Pool').click()
  await expect(new DevboxPoolTab(page).heading).toBeVisible()
  await expectPath(page, '/admin/pool')
  await admin.tab('Users').click()
  await expect(page.getByRole('region', { name: 'Users' })).toBeVisible()
  await expectPath(page, '/admin/users')
  await admin.tab('Mail').click()
  await expect(page.getByRole('heading', { name: 'Mail', level: 2 })).toBeVisible()
  await expectPath(page, '/admin/mail')
  await admin.tab('Access').click()
  await expect(page.getByRole('heading', { name: 'Sign-up rules' })).toBeVisible()
  await expectPath(page, '/admin/access')

  await navbar.signOut()
  await expect(signIn.heading).toBeVisible()
})

test('the user menu reaches its places by keyboard, and shows Admin to admins only', async ({
  page,
}) => {
  await signUpNewUser(page, 'Keys')
  const navbar = new Navbar(page)
  await navbar.openMenu()
  await expect(navbar.menu.getByRole('menuitem', { name: 'Settings' })).toBeVisible()
  await expect(navbar.menu.getByRole('menuitem', { name: 'Error Monitoring' })).toBeVisible()
  await expect(navbar.menu.getByRole('menuitem', { name: 'Admin' })).toHaveCount(0)

  // The first item has the focus; the arrow keys walk down to Error Monitoring.
  const errorMonitoring = navbar.menu.getByRole('menuitem', { name: 'Error Monitoring' })
  for (let step = 0; step < 10; step += 1) {
    if (await errorMonitoring.evaluate((item) => item === document.activeElement)) break
    await page.keyboard.press('ArrowDown')
  }
  await expect(errorMonitoring).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(new ErrorsPage(page).heading).toBeVisible()
  await expect(navbar.menu).toBeHidden()
  await expectPath(page, '/errors')
})
