import { expect, type FrameLocator, type Page, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import { HomePage } from './pages/home-page.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import { DEVBOX_READY_TIMEOUT } from './support/applications.ts'
import { ownServer } from './support/own-server.ts'
import { testGate } from './support/test-gates.ts'
import { adminUser } from './support/users.ts'

// An app with a back end, end to end (docs/architecture/devbox.md "App back ends"): the Demo
// model's guest book keeps its entries in the app database, the preview and production each in
// their own, and both survive a restart of Sprout. This test restarts its own server.
const server = ownServer(3107)
test.use({ baseURL: server.baseURL })
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 360_000 })
test.beforeAll(async () => {
  test.setTimeout(120_000)
  await server.start()
})
test.afterAll(() => server.stop())
// What the server and the preview said, printed with a failure: a CI log is all there is then.
test.afterEach(async ({ page }, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return
  const pane = await new BuilderPage(page).previewPane.innerText({ timeout: 1_000 }).catch(() => '')
  console.log(
    `Preview pane:\n${pane}\n\nServer output (last 8,000 characters):\n${server.output()}`,
  )
})

const agentWork = { timeout: 60_000 }

/**
 * Signs the guest book on the page (or frame) showing it and waits for the entry to be listed.
 * Enter in the name field submits the form: Playwright aims clicks inside the preview's scaled
 * frame as if it were not scaled, and would miss the button.
 */
async function sign(scope: Page | FrameLocator, name: string, text: string) {
  await scope.getByLabel('Message').fill(text)
  await scope.getByLabel('Name').fill(name)
  await scope.getByLabel('Name').press('Enter')
  await expect(scope.getByRole('region', { name: 'Entries' }).getByText(text)).toBeVisible()
}

test('the Demo model builds a guest book whose entries live in the preview and in production, across a restart', async ({
  page,
}) => {
  // This server's admin (listed in ADMIN_EMAILS, server-environment.ts), who may deploy.
  await new SignUpPage(page).goto()
  await new SignUpPage(page).signUp(adminUser)
  const home = new HomePage(page)
  await home.heading.waitFor()
  await home.openCreateDialog()
  // The run waits at a gate until the editor shows it running: a run that ended before the editor
  // opened would never make the builder reload the preview, and this test waits for that reload.
  const gate = testGate()
  await home.createDialog.fill({ name: 'Guests', description: `Build a guest book ${gate.token}` })
  await home.createDialog.createButton.click()
  await page.waitForURL(/\/applications\/[^/]+\/edit$/, { timeout: DEVBOX_READY_TIMEOUT + 30_000 })
  const editorUrl = page.url()
  const builder = new BuilderPage(page)
  const chat = new ChatPanel(page)
  await expect(builder.iframe).toHaveAttribute('src', /.+/, agentWork)
  await expect(chat.interruptButton).toBeVisible(agentWork)
  const frameBeforeRun = await builder.iframe.getAttribute('src')
  await gate.release()

  await expect(chat.agentMessages.last()).toContainText(
    'The Guest Book keeps its entries in the app database',
    agentWork,
  )
  await expect(chat.interruptButton).toHaveCount(0, agentWork)
  await expect(chat.toolCall('Write: server/app.ts')).toBeVisible()

  // The preview: the page calls its own server routes, which keep the entry in the database.
  // The builder reloads the preview once the run is over; typing before that would be lost.
  await expect(builder.iframe).not.toHaveAttribute('src', frameBeforeRun ?? '', agentWork)
  await builder.interactCover.click()
  // The pane widens as it takes focus; a click aimed while the frame still grows would miss.
  await expect.poll(() => builder.paneWidth()).toBe(500)
  await expect(builder.frame.getByText('No entries yet. Be the first to sign!')).toBeVisible(
    agentWork,
  )
  await sign(builder.frame, 'Ada', 'Hello from the preview')

  // Production has a database of its own: empty at first, then the entry added there.
  await builder.deployButton.click()
  await expect(builder.deployNotice).toContainText('Deployment initiated successfully!', {
    timeout: 180_000,
  })
  const liveUrl = (await builder.liveLink.getAttribute('href')) ?? ''
  const live = await page.context().newPage()
  await live.goto(liveUrl)
  await expect(live.getByText('No entries yet. Be the first to sign!')).toBeVisible()
  await sign(live, 'Grace', 'Hello from production')
  await expect(live.getByText('Hello from the preview')).toHaveCount(0)

  // After a restart the production server starts on the first request, with its data.
  await server.stop()
  await server.start()
  await live.reload()
  await expect(live.getByText('Hello from production')).toBeVisible(agentWork)
  await expect(live.getByText('Hello from the preview')).toHaveCount(0)

  // And the preview still lists its own entry, once its dev box is back.
  await page.goto(editorUrl)
  await expect(builder.frame.getByText('Hello from the preview')).toBeVisible({
    timeout: DEVBOX_READY_TIMEOUT,
  })
})
