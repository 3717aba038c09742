import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { ownServer } from './support/own-server.ts'
import { signUpNewUser } from './support/session.ts'

// docs/product/checks.md "Acceptance tests": the Demo model's guest book fails its acceptance
// test, the Checks block shows the page at the failure, the repair turn fixes it and its check
// passes. A server of its own with checks and acceptance tests (the checks test's runs without
// them, so a loaded machine's slow browser is not a second problem there).
const server = ownServer(3132, { CHECKS: 'on', ACCEPTANCE_TESTS: 'on' })
test.use({ baseURL: server.baseURL })
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 300_000 })
test.beforeAll(async () => {
  test.setTimeout(120_000)
  await server.start()
})
test.afterAll(() => server.stop())
test.afterEach(async ({ page: _page }, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return
  console.log(`Server output (last 8,000 characters):\n${server.output()}`)
})

const agentWork = { timeout: 90_000 }

test('a failing acceptance test shows its screenshot, and the repair makes it pass', async ({
  page,
}) => {
  await signUpNewUser(page, 'Tester')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Acceptance'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  const chat = new ChatPanel(page)
  const checks = chat.transcript.getByRole('region', { name: 'Checks' })
  await expect(builder.frame.getByText('SQLite database')).toBeVisible(agentWork)

  await chat.send('Build a guest book with a test')
  const first = checks.first()
  await expect(first).toContainText(/Acceptance tests\s*\(1\)/, agentWork)
  await expect(first).toContainText('tests/acceptance/guest-book.spec.ts:9:')
  await expect(first).toContainText('signs the guest book')
  // The page at the failure: a thumbnail that opens whole, and Escape puts it away.
  const thumbnail = first.getByRole('button', { name: /^The page when “signs the guest book/ })
  await expect(thumbnail.locator('img')).toHaveJSProperty('naturalWidth', 1280)
  await thumbnail.click()
  const viewer = page.getByRole('dialog', { name: 'Screenshot at the failure' })
  await expect(viewer.locator('img')).toHaveJSProperty('naturalHeight', 800)
  await page.keyboard.press('Escape')
  await expect(viewer).toBeHidden()
  // The repair turn saw it and fixed the page; its check passes.
  const repairs = chat.transcript.getByTestId('repair-message')
  await expect(repairs.first()).toContainText('Fixing 1 failing acceptance test…', agentWork)
  await expect(checks).toHaveCount(2, agentWork)
  await expect(checks.nth(1)).toContainText('All checks passed', agentWork)
  await expect(chat.transcript).toContainText('The screenshot shows the page after signing')
})
