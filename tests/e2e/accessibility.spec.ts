import { expect, type Locator, type Page, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel, ConversationList } from './pages/chat-panel.ts'
import { CodeTab } from './pages/code-tab.ts'
import { ErrorsPage } from './pages/errors-page.ts'
import { EvaluationsTab } from './pages/evaluations-tab.ts'
import { HistoryPanel } from './pages/history-panel.ts'
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
import { seriousViolations } from './support/axe.ts'
import { reportBrowserError } from './support/error-reports.ts'
import { signInAsAdmin, signUpNewUser } from './support/session.ts'

// Issues 20 and 28: every screen passes axe-core with no serious or critical violations, at
// the three sizes users work at. Each test sets its state up once (one user, one app) and
// visits its screens at each size.
const viewports = [
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]

const agentWork = { timeout: 60_000 }
test.use({ actionTimeout: 20_000 })

/** Collects every violation of every screen, so one run reports them all. */
function violationCollector(page: Page) {
  const found: string[] = []
  let size = ''
  return {
    found,
    async atSize(viewport: (typeof viewports)[number]) {
      size = `${viewport.width}x${viewport.height}`
      await page.setViewportSize(viewport)
    },
    async check(screen: string, ready: Locator) {
      await expect(ready).toBeVisible()
      found.push(...(await seriousViolations(page, `${size} ${screen}`)))
    },
  }
}

test('the signed-out screens pass axe-core at every size', async ({ page }) => {
  // Twelve axe runs of a few seconds each on a loaded machine.
  test.setTimeout(120_000)
  const axe = violationCollector(page)
  const signIn = new SignInPage(page)
  for (const viewport of viewports) {
    await axe.atSize(viewport)
    await signIn.goto()
    await axe.check('sign-in', signIn.heading)
    await page.goto('/signup')
    await axe.check('sign-up', page.getByRole('heading', { name: 'Create your account' }))
    await page.goto('/forgot-password')
    await axe.check('forgot password', page.getByRole('heading', { name: 'Reset your password' }))
    await page.goto('/reset-password?token=axe')
    await axe.check('reset password', page.getByRole('button', { name: /password/i }).first())
  }
  expect(axe.found, axe.found.join('\n')).toEqual([])
})

// One test per size: each sets its own state up, so each fits its time on a loaded machine and
// the sizes can run side by side.
for (const viewport of viewports) {
  test(`the account, settings, organization and admin screens pass axe-core at ${viewport.width}×${viewport.height}`, async ({
    page,
  }) => {
    test.setTimeout(240_000)
    const axe = violationCollector(page)
    await signInAsAdmin(page)
    const organizations = new OrganizationsPage(page)
    const organizationName = uniqueApplicationName('Axe team')
    await organizations.goto()
    await organizations.create(organizationName)
    await organizations.invite(organizationName, `axe-${Date.now()}@example.com`)
    await page.goto('/')
    await page.getByRole('button', { name: 'Explore an idea' }).click()
    const exploration = new ChatPanel(page, 'Exploration chat')
    await exploration.send('A recipe tracker for my family')
    await expect(exploration.agentMessages.last()).toContainText('I am the Demo model', agentWork)
    const explorationUrl = page.url()

    const navbar = new Navbar(page)
    const settings = new SettingsPage(page)
    const evaluations = new EvaluationsTab(page)
    const repairSwitch = page.getByRole('switch', {
      name: 'Repair automatically after a failed check',
    })
    await axe.atSize(viewport)
    await page.goto(explorationUrl)
    await axe.check('exploration', exploration.agentMessages.last())
    await page.goto('/')
    await axe.check('home', new HomePage(page).heading)
    await navbar.openMenu()
    await axe.check('user menu', navbar.menu)
    await page.keyboard.press('Escape')
    await page.goto('/account')
    await axe.check('account', page.getByRole('heading', { name: 'Account', level: 1 }))
    await settings.goto()
    await expect(settings.grid.or(page.getByText('No integrations available'))).toBeVisible()
    await axe.check('settings (integrations, checks)', repairSwitch)
    await organizations.goto()
    await axe.check('organizations', organizations.card(organizationName))
    await organizations.manage(organizationName)
    await axe.check('organization members', organizations.members(organizationName).first())

    await page.goto('/admin')
    await axe.check(
      'admin integrations',
      page.getByRole('heading', { name: 'Integrations', level: 2 }),
    )
    await evaluations.goto()
    await axe.check('admin evaluations', evaluations.heading)
    await page.goto('/admin/pool')
    await axe.check('admin devbox pool', page.getByRole('heading', { name: 'Devbox Pool' }))
    await page.goto('/admin/users')
    await axe.check('admin users', page.getByRole('region', { name: 'Users' }))
    await page.goto('/admin/mail')
    await axe.check('admin mail', page.getByRole('heading', { name: 'Mail', level: 2 }))
    await page.goto('/admin/audit')
    await axe.check('admin audit', page.getByRole('table', { name: 'Audit events' }))
    await page.goto('/admin/access')
    await axe.check('admin access', page.getByRole('heading', { name: 'Sign-up rules' }))
    await page.goto('/unauthorized')
    await axe.check('access denied', page.getByRole('heading', { name: 'Access denied' }))

    expect(axe.found, axe.found.join('\n')).toEqual([])
  })
}

test('the builder, its errors, checks, History and Code, and the Errors page pass axe-core at every size', async ({
  page,
}) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 300_000)
  await signUpNewUser(page, 'Axe')
  const application = (await createApplicationViaApi(page, uniqueApplicationName('Axe'))) as {
    id: string
    name: string
    dsn?: string
  }
  const builder = new BuilderPage(page)
  const chat = new ChatPanel(page)
  const history = new HistoryPanel(page)
  const code = new CodeTab(page)
  const conversations = new ConversationList(page)
  const errors = new ErrorsPage(page)
  const home = new HomePage(page)
  const checkStatus = page.getByTestId('check-status')
  const problems = checkStatus.getByRole('button', { name: /\d+ problems?/ })
  const filesChanged = chat.transcript.getByRole('button', { name: /^\d+ files? changed$/ })
  // Beside the preview on a laptop; one of the builder's tabs on a phone.
  const codeTab = page.getByRole('tab', { name: 'Code', exact: true })
  const previewTab = page.getByRole('tab', { name: 'Preview', exact: true })

  // A conversation with reasoning and tool calls whose runs made versions (History's diff), the
  // last one with a type error (a failed check: the header's problems popover).
  await builder.goto(application.id)
  await chat.send('Build a recipe tracker with ingredients and ratings')
  await expect(filesChanged).toBeVisible(agentWork)
  await expect(chat.interruptButton).toBeHidden(agentWork)
  await expect(chat.reasoning.first()).toBeVisible()
  await chat.send('Build a counter with a type error')
  await expect(filesChanged).toHaveCount(2, agentWork)
  await expect(chat.interruptButton).toBeHidden(agentWork)
  await checkStatus.getByRole('button', { name: 'Check now' }).click()
  await expect(problems).toBeVisible(agentWork)
  // Four active errors: three listed, '+1 more'.
  expect(application.dsn).toBeTruthy()
  for (const [type, message] of [
    ['TypeError', "Cannot read properties of undefined (reading 'length')"],
    ['ReferenceError', 'counter is not defined'],
    ['RangeError', 'Invalid array length'],
    ['Error', 'The list could not be saved'],
  ] as const) {
    await reportBrowserError(page, application.dsn ?? '', type, message)
  }

  const axe = violationCollector(page)
  for (const viewport of viewports) {
    await axe.atSize(viewport)
    await home.goto()
    await axe.check('home with apps', home.card(application.name))
    await home.openCreateDialog()
    await axe.check('create dialog', home.createDialog.dialog)
    await page.keyboard.press('Escape')

    await builder.goto(application.id)
    await axe.check('builder chat', filesChanged.last())
    const write = chat.toolCall('Write: src/App.tsx').first()
    await write.getByRole('button', { name: 'Write: src/App.tsx' }).click()
    await axe.check('builder chat, a tool call open', write.locator('pre').first())
    await page.getByRole('button', { name: /(Expand|Collapse) conversations/ }).click()
    await axe.check('builder conversation list', conversations.aside)
    if (await builder.previewTab.isVisible()) {
      await page.getByRole('button', { name: /(Expand|Collapse) conversations/ }).click()
    }

    // On a phone the preview, its toolbar and its error list are the Preview tab.
    if (await builder.previewTab.isVisible()) await builder.previewTab.click()
    await problems.click()
    await axe.check(
      'check popover',
      page.getByRole('dialog', { name: 'Problems of the last check' }),
    )
    await page.keyboard.press('Escape')
    await axe.check('builder error list', builder.errorList.getByText('Errors (4)'))
    await builder.errorList.getByRole('button', { name: /ReferenceError/ }).click()
    await axe.check('builder error details', builder.errorList.getByTestId('error-details'))
    await builder.errorList.getByRole('button', { name: 'Collapse' }).click()
    await builder.vaultButton.click()
    await axe.check('vault', page.getByRole('dialog', { name: 'Vault Secrets' }))
    await page.keyboard.press('Escape')

    await codeTab.click()
    await axe.check('code tab', code.editor)
    await previewTab.click()

    await history.openButton.click()
    await axe.check('history list', history.rows.first())
    await history.rows.first().click()
    await axe.check(
      'history unified diff',
      history.diffFile('src/App.tsx').locator('.d2h-ins').first(),
    )
    await history.layoutButton('Side by side').click()
    await axe.check(
      'history side-by-side diff',
      history.diffFile('src/App.tsx').locator('.d2h-file-side-diff').first(),
    )
    await history.layoutButton('Unified').click()
    await history.closeButton.click()

    await errors.goto()
    await axe.check('errors page', errors.cards.first())
    await errors.cards.first().getByRole('button').click()
    await axe.check('error detail dialog', errors.dialog.getByTestId('error-occurrence').first())
    await page.keyboard.press('Escape')
  }

  expect(axe.found, axe.found.join('\n')).toEqual([])
})
