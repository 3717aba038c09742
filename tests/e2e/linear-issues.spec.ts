import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import { HomePage } from './pages/home-page.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import { DEVBOX_READY_TIMEOUT } from './support/applications.ts'
import { testGate } from './support/test-gates.ts'
import { newUser } from './support/users.ts'

// Integration guide and app runtime token end to end (decision 019): the Demo model asks the Linear
// guide, writes a getAccessToken('linear') route, and with Linear unconnected the page shows the
// reason sprout.internal gave.
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 120_000 })

const agentWork = { timeout: 60_000 }

test('the Demo model asks the Linear guide and the preview reaches sprout.internal for a token', async ({
  page,
}) => {
  await new SignUpPage(page).goto()
  await new SignUpPage(page).signUp(newUser('Linear'))
  const home = new HomePage(page)
  await home.heading.waitFor()
  await home.openCreateDialog()
  // Held after its first step until the frame's first address is read: on a loaded machine the
  // run could otherwise end, and reload the frame, before the test had seen the frame at all.
  const gate = testGate()
  await home.createDialog.fill({
    name: 'Issues',
    description: `Build a page listing my Linear issues ${gate.token}`,
  })
  await home.createDialog.createButton.click()
  await page.waitForURL(/\/applications\/[^/]+\/edit$/, { timeout: DEVBOX_READY_TIMEOUT + 30_000 })
  const builder = new BuilderPage(page)
  await expect(builder.iframe).toHaveAttribute('src', /.+/, agentWork)
  const frameBeforeRun = await builder.iframe.getAttribute('src')
  await gate.release()

  const chat = new ChatPanel(page)
  const guide = chat.toolCall('Linear Integration Guide')
  await expect(guide).toBeVisible(agentWork)
  // Issue 20: the preset's display name, and none of the guide's notes for its maintainers.
  await expect(guide.getByRole('button', { name: 'Linear Integration Guide' })).toContainText(
    'Linear Integration Guide',
  )
  await expect(guide).not.toContainText('integration_guide tool')
  await expect(guide).not.toContainText('](')
  // Open by default: the question, the badge and the rendered answer.
  await expect(guide).toContainText(
    'How do I list my open issues from a server route, with pagination?',
  )
  await expect(guide).toContainText('Expert Response')
  await expect(guide).toContainText('Calling the API from server/')
  await expect(chat.agentMessages.last()).toContainText("getAccessToken('linear')", agentWork)
  await expect(chat.toolCall('Write: server/app.ts')).toBeVisible()

  await expect(builder.iframe).not.toHaveAttribute('src', frameBeforeRun ?? '', agentWork)
  await expect(builder.frame.getByRole('alert')).toContainText(
    'No access token for linear',
    agentWork,
  )
})
