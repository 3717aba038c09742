import AxeBuilder from '@axe-core/playwright'
import { expect, type Locator, type Page, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ErrorsPage } from './pages/errors-page.ts'
import { EvaluationsTab } from './pages/evaluations-tab.ts'
import { HomePage } from './pages/home-page.ts'
import { Navbar } from './pages/navbar.ts'
import { OrganizationsPage } from './pages/organizations-page.ts'
import { SettingsPage } from './pages/settings-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { signInAsAdmin } from './support/session.ts'

// Issue 20: the product's screens pass axe-core with no serious or critical violations, on a
// phone and on a laptop.
const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1280, height: 800 },
]

/** The serious and critical violations on the page as it is now, one readable line each. */
async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    // The preview shows the user's own application, not Sprout's screens.
    .exclude('iframe[title="Application preview"]')
    .analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${screen}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.nodes
          .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`)
          .join(', ')}`,
    )
}

for (const viewport of viewports) {
  test(`every screen passes axe-core on a ${viewport.name} (${viewport.width}x${viewport.height})`, async ({
    page,
  }) => {
    test.setTimeout(DEVBOX_READY_TIMEOUT + 120_000)
    await page.setViewportSize(viewport)
    const found: string[] = []
    const check = async (screen: string, ready: Locator) => {
      await expect(ready).toBeVisible()
      found.push(...(await seriousViolations(page, screen)))
    }

    const signIn = new SignInPage(page)
    await signIn.goto()
    await check('sign-in', signIn.heading)
    await page.goto('/signup')
    await check('sign-up', page.getByRole('heading', { name: 'Create your account' }))
    await page.goto('/forgot-password')
    await check('forgot password', page.getByRole('heading', { name: 'Reset your password' }))

    await signInAsAdmin(page)
    const application = await createApplicationViaApi(page, uniqueApplicationName('Axe'))
    const home = new HomePage(page)
    await home.goto()
    await check('home', home.card(application.name))
    await new Navbar(page).openMenu()
    await check('user menu', new Navbar(page).menu)
    await page.keyboard.press('Escape')
    await home.openCreateDialog()
    await check('create dialog', home.createDialog.dialog)
    await page.keyboard.press('Escape')

    const builder = new BuilderPage(page)
    await builder.goto(application.id)
    await check('builder chat', page.getByRole('textbox', { name: 'Message' }))
    await page.getByRole('button', { name: /(Expand|Collapse) conversations/ }).click()
    await check(
      'builder conversation list',
      page.getByRole('complementary', { name: 'Conversations' }),
    )
    if (await builder.previewTab.isVisible()) await builder.previewTab.click()
    await check('builder preview', builder.iframe)
    await builder.vaultButton.click()
    await check('vault', page.getByRole('dialog', { name: 'Vault Secrets' }))
    await page.keyboard.press('Escape')

    await page.goto('/')
    await page.getByRole('button', { name: 'Explore an idea' }).click()
    await check('exploration', page.getByRole('heading', { name: 'Exploration Mode' }))

    await page.goto('/account')
    await check('account', page.getByRole('heading', { name: 'Account', level: 1 }))
    const settings = new SettingsPage(page)
    await settings.goto()
    await check('settings', settings.heading)
    const errors = new ErrorsPage(page)
    await errors.goto()
    await check('errors', errors.heading)
    const organizations = new OrganizationsPage(page)
    await organizations.goto()
    await check('organizations', organizations.heading)

    await page.goto('/admin')
    await check('admin integrations', page.getByRole('heading', { name: 'Integrations', level: 2 }))
    const evaluations = new EvaluationsTab(page)
    await evaluations.goto()
    await check('admin evaluations', evaluations.heading)
    await page.goto('/admin/pool')
    await check('admin devbox pool', page.getByRole('heading', { name: 'Devbox Pool' }))
    await page.goto('/admin/users')
    await check('admin users', page.getByRole('region', { name: 'Users' }))
    await page.goto('/admin/mail')
    await check('admin mail', page.getByRole('heading', { name: 'Mail', level: 2 }))
    await page.goto('/admin/access')
    await check('admin access', page.getByRole('heading', { name: 'Sign-up rules' }))
    await page.goto('/unauthorized')
    await check('access denied', page.getByRole('heading', { name: 'Access denied' }))

    expect(found, found.join('\n')).toEqual([])
  })
}
