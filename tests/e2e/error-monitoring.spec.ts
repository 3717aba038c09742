import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import { ErrorsPage } from './pages/errors-page.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { signUpNewUser } from './support/session.ts'

// Error monitoring's whole loop (docs/product/error-monitoring.md): the Demo model writes a bug,
// a click in the preview throws, the injected reporter sends it, the builder lists it, the agent
// reads it with error_reports_list, fixes it and resolves its group; the Errors page agrees.

const agentWork = { timeout: 60_000 }
// The preview tells the builder at once (browser-reporter.ts), which reads the list then.
const errorArrives = { timeout: 20_000 }

test('the Demo model fixes the error a click in the preview caused, and resolves it', async ({
  page,
}) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 420_000)
  await signUpNewUser(page, 'Fixer')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Counter'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  await expect(builder.errorList).toContainText('No Errors')
  await expect(builder.errorList).toContainText('All clear!')

  const chat = new ChatPanel(page)
  await expect(builder.iframe).toHaveAttribute('src', /.+/, agentWork)
  const frameBeforeRun = await builder.iframe.getAttribute('src')
  await chat.send('Build a counter with a bug')
  await expect(chat.agentMessages.last()).toContainText("'Ask agent to fix this error'", agentWork)
  await expect(chat.interruptButton).toHaveCount(0, agentWork)

  // The click that throws. Enter on the focused button: clicks aimed into the scaled frame miss.
  await expect(builder.iframe).not.toHaveAttribute('src', frameBeforeRun ?? '', agentWork)
  await builder.interactCover.click()
  await expect.poll(() => builder.paneWidth()).toBe(500)
  const showHistory = builder.frame.getByRole('button', { name: 'Show history' })
  await showHistory.press('Enter', agentWork)
  const pressed = Date.now()

  await expect(builder.errorList).toContainText('Errors (1)', errorArrives)
  // How long an error takes to be listed (docs/performance.md), in the report.
  test
    .info()
    .annotations.push({ type: 'error listed after (ms)', description: `${Date.now() - pressed}` })
  const error = builder.errorList.getByRole('button', { name: /TypeError: Cannot read properties/ })
  await error.click()
  await expect(builder.errorList.getByTestId('error-details')).toContainText('reading')
  const frameBeforeFix = await builder.iframe.getAttribute('src')
  await builder.errorList.getByRole('button', { name: 'Ask agent to fix this error' }).click()

  await expect(chat.userMessages.last()).toContainText('Please fix this error in the app:')
  // The app's own frames at their workspace paths, not the preview's address and React's frames.
  await expect(chat.userMessages.last()).toContainText('(src/App.tsx:')
  await expect(chat.userMessages.last()).not.toContainText('preview.localhost')
  await expect(chat.userMessages.last()).not.toContainText('node_modules')
  await expect(chat.toolCall('List errors')).toBeVisible(agentWork)
  await expect(chat.toolCall('Edit: src/App.tsx (+1 -1)')).toBeVisible(agentWork)
  await expect(chat.toolCall(/^Resolve error/)).toBeVisible(agentWork)
  await expect(chat.agentMessages.last()).toContainText('the error is resolved', agentWork)
  await expect(chat.interruptButton).toHaveCount(0, agentWork)
  await expect(builder.errorList).toContainText('No Errors', agentWork)

  // The fixed page no longer throws, once the builder has reloaded it after the run (a press
  // before that would go to the page being replaced). The pane kept its focus: the error list is
  // inside it.
  await expect(builder.iframe).not.toHaveAttribute('src', frameBeforeFix ?? '', agentWork)
  await expect.poll(() => builder.paneWidth()).toBe(500)
  await showHistory.press('Enter', agentWork)
  await expect(builder.frame.getByText('0 saved counts')).toBeVisible(agentWork)

  // The Errors page lists the group as resolved, with its occurrence.
  const errors = new ErrorsPage(page)
  await errors.goto()
  await expect(errors.heading).toBeVisible()
  await expect(page.getByText('No active errors')).toBeVisible()
  await errors.tab('Resolved').click()
  // The chosen tab is in the address: a reload keeps it.
  await expect(page).toHaveURL(/[?&]status=resolved/)
  await page.reload()
  await expect(errors.tab('Resolved')).toHaveAttribute('aria-selected', 'true')
  await expect(errors.cards).toHaveCount(1)
  await expect(errors.cards.first()).toContainText('TypeError')
  await expect(errors.cards.first()).toContainText('1 occurrence')
  await errors.cards.first().getByRole('button').click()
  await expect(errors.dialog.getByRole('button', { name: 'Mark as Resolved' })).toBeDisabled()
  await expect(errors.dialog.getByTestId('error-occurrence')).toHaveCount(1)
  await errors.dialog.getByRole('button', { name: 'Reopen' }).click()
  await expect(errors.dialog.getByRole('button', { name: 'Reopen' })).toBeDisabled()
  await errors.dialog.getByRole('button', { name: 'Close' }).click()
  await expect(errors.dialog).toBeHidden()
})
