import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import { CodeTab } from './pages/code-tab.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { ownServer } from './support/own-server.ts'
import { signUpNewUser } from './support/session.ts'

// docs/product/checks.md: the Demo model writes a type error on purpose, the check after its run
// finds it, the one repair turn fixes it and its own check passes; with repairs off, the problem
// stays shown and nothing starts. The shared server runs without checks (CHECKS=off): this test
// has a server of its own with them.
const server = ownServer(3131, { CHECKS: 'on' })
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
const typeErrorMessage = "Type 'number' is not assignable to type 'string'."

test('a type error is checked, repaired once, and checked again; with repairs off it stays shown', async ({
  page,
}) => {
  await signUpNewUser(page, 'Checker')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Checks'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  const chat = new ChatPanel(page)
  const checks = chat.transcript.getByRole('region', { name: 'Checks' })
  const repairs = chat.transcript.getByTestId('repair-message')
  const status = page.getByTestId('check-status')
  await expect(builder.frame.getByText('SQLite database')).toBeVisible(agentWork)

  await chat.send('Build a counter with a type error')
  // The run's check finds the error, at its place, with its message.
  const first = checks.first()
  await expect(first).toContainText('src/App.tsx:5:', agentWork)
  await expect(first).toContainText(typeErrorMessage)
  await expect(first).toContainText(/Type check\s*\(1\)/)
  // The repair turn is the agent's own line, and its check passes.
  await expect(repairs).toHaveCount(1, agentWork)
  await expect(repairs.first()).toContainText('Fixing 1 type error…')
  await expect(checks).toHaveCount(2, agentWork)
  await expect(checks.nth(1)).toContainText('All checks passed', agentWork)
  await expect(status).toContainText('Checks passed', agentWork)
  await expect(chat.interruptButton).toBeHidden(agentWork)

  // A problem opens its file in the Code tab; the repair's fix is there.
  await first.getByRole('button', { name: /src\/App\.tsx:5:/ }).click()
  const code = new CodeTab(page)
  await expect(code.editor).toContainText('String(count)')
  await code.previewTab.click()

  // A reload shows the same: the checks are part of the conversation.
  await page.reload()
  await expect(checks).toHaveCount(2, agentWork)
  await expect(checks.nth(1)).toContainText('All checks passed')

  // The organization turns repairs off (Settings → Checks).
  await page.goto('/settings')
  const repairSwitch = page.getByRole('switch', {
    name: 'Repair automatically after a failed check',
  })
  await expect(repairSwitch).toHaveAttribute('aria-checked', 'true')
  await repairSwitch.click()
  await expect(repairSwitch).toHaveAttribute('aria-checked', 'false')

  await builder.goto(application.id)
  await expect(checks).toHaveCount(2, agentWork)
  await chat.send('Build a counter with a type error')
  await expect(checks).toHaveCount(3, agentWork)
  await expect(checks.nth(2)).toContainText(typeErrorMessage, agentWork)
  // The header reads the stored check: once it says so, a repair would have started already.
  await expect(status).toContainText('1 problem', agentWork)
  await expect(repairs).toHaveCount(1)
  await expect(chat.interruptButton).toBeHidden()
  // The header's problems open in a popover; Escape closes it.
  await status.getByRole('button', { name: '1 problem' }).click()
  await expect(status.getByText(typeErrorMessage)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(status.getByText(typeErrorMessage)).toBeHidden()
})
