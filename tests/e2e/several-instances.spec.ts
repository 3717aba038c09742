import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import { CodeTab } from './pages/code-tab.ts'
import { HistoryPanel } from './pages/history-panel.ts'
import { HomePage } from './pages/home-page.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import {
  startInstancesBehindHaproxy,
  whyNoInstancesBehindHaproxy,
} from './support/instances-behind-haproxy.ts'
import { newUser } from './support/users.ts'

// Issue 30's first test: three instances on one PostgreSQL behind HAProxy, round robin without
// stickiness (docs/operations/several-instances.md). Each step is the one its single-instance
// spec takes (code-editor, error-monitoring, versions, vault, builder), and each request may land
// on any instance: those not owning the app's box relay it (decision 033).
const balancerPort = 29400
const skipped = whyNoInstancesBehindHaproxy()
test.skip(skipped !== undefined, skipped)
test.use({ baseURL: `http://localhost:${balancerPort}` })
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 510_000 })

// The platform admin of these instances, who may deploy.
const user = newUser('Cluster')
let cluster: Awaited<ReturnType<typeof startInstancesBehindHaproxy>> | undefined
test.beforeAll(async () => {
  test.setTimeout(180_000)
  cluster = await startInstancesBehindHaproxy({
    balancerPort,
    count: 3,
    environment: { ADMIN_EMAILS: user.email },
  })
})
test.afterAll(() => cluster?.stop())
// What each instance and HAProxy said, with a failure: a CI log is all there is then.
test.afterEach(async ({ page: _page }, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus || !cluster) return
  for (const { name, server } of cluster.instances) {
    console.log(`${name} (last 8,000 characters):\n${server.output()}\n`)
  }
  console.log(`HAProxy:\n${cluster.balancer.output()}`)
})

const agentWork = { timeout: 60_000 }
// The preview tells the builder at once (browser-reporter.ts), which reads the list then.
const errorArrives = { timeout: 20_000 }

test('sign up, build, chat, preview with HMR, Code tab, restore, secret, deploy and an error, across three instances', async ({
  page,
}) => {
  const balancer = cluster?.balancer
  if (!balancer) throw new Error('the instances did not start')
  const builder = new BuilderPage(page)
  const application = await test.step('sign up and create an app', async () => {
    await new SignUpPage(page).goto()
    await new SignUpPage(page).signUp(user)
    await new HomePage(page).heading.waitFor()
    return createApplicationViaApi(page, uniqueApplicationName('Cluster'))
  })

  await test.step('see the preview', async () => {
    await builder.goto(application.id)
    await expect(builder.frame.getByText('SQLite database')).toBeVisible(agentWork)
  })

  // The Code tab's save reaches the preview as a module update over its HMR socket: the page's
  // window, marked before, is still the same one after.
  await test.step("the Code tab's save, over HMR", async () => {
    const previewFrame = await (await builder.iframe.elementHandle())?.contentFrame()
    if (!previewFrame) throw new Error('the preview has no frame')
    await previewFrame.evaluate(() => {
      ;(window as unknown as { sameWindow?: boolean }).sameWindow = true
    })
    const code = new CodeTab(page)
    await code.tab.click()
    await expect(code.editor).toContainText("title: 'SQLite database'")
    await code.replaceAll('SQLite database', 'Balanced database')
    await page.keyboard.press('ControlOrMeta+s')
    await expect(code.unsavedMarker).toBeHidden()
    await code.previewTab.click()
    await expect(builder.frame.getByText('Balanced database')).toBeVisible(agentWork)
    expect(
      await previewFrame.evaluate(() => (window as unknown as { sameWindow?: boolean }).sameWindow),
    ).toBe(true)
  })

  // A Demo run whose app throws on a click; the preview's reporter sends the error.
  await test.step('a Demo run and an error', async () => {
    const chat = new ChatPanel(page)
    const frameBeforeRun = await builder.iframe.getAttribute('src')
    await chat.send('Build a counter with a bug')
    await expect(chat.agentMessages.last()).toContainText(
      "'Ask agent to fix this error'",
      agentWork,
    )
    await expect(chat.interruptButton).toHaveCount(0, agentWork)
    await expect(builder.iframe).not.toHaveAttribute('src', frameBeforeRun ?? '', agentWork)
    await builder.interactCover.click()
    await expect.poll(() => builder.paneWidth()).toBe(500)
    await builder.frame.getByRole('button', { name: 'Show history' }).press('Enter', agentWork)
    await expect(builder.errorList).toContainText('Errors (1)', errorArrives)
  })

  // Restore the hand edit's version: the preview shows it again.
  await test.step('restore a version', async () => {
    const history = new HistoryPanel(page)
    await history.openButton.click()
    await history.row(`Edited by ${user.name}: src/App.tsx`).click()
    await history.restoreButton.click()
    await page.keyboard.press('Enter')
    await expect(history.dialog).toBeHidden()
    await expect(history.rows.first()).toContainText('Restored', agentWork)
    await expect(builder.frame.getByText('Balanced database')).toBeVisible(agentWork)
    await history.closeButton.click()
  })

  // A secret, through whichever instance.
  await test.step('set a secret', async () => {
    await builder.vaultButton.click()
    const modal = page.getByRole('dialog', { name: 'Vault Secrets' })
    await modal.getByRole('button', { name: 'Add Secret' }).click()
    await modal.getByLabel('Secret key').fill('STRIPE_KEY')
    await modal.getByLabel('Secret value').fill('sk_test_cluster_value')
    await modal.getByRole('button', { name: 'Set', exact: true }).click()
    await expect(modal.getByRole('row', { name: /STRIPE_KEY/ })).toBeVisible()
    await modal.getByRole('button', { name: 'Close' }).click()
  })

  // Deploy, and open the deployed app: its requests too may land on any instance.
  await test.step('deploy and open the app', async () => {
    await builder.deployButton.click()
    // The build took 77–150 s and more on this 2-core machine under a CI rehearsal's load.
    await expect(builder.deployNotice).toContainText('Deployment initiated successfully!', {
      timeout: 240_000,
    })
    const liveUrl = (await builder.liveLink.getAttribute('href')) ?? ''
    expect(new URL(liveUrl).port).toBe(String(balancerPort))
    const live = await page.context().newPage()
    await live.goto(liveUrl)
    await expect(live.getByText('Balanced database')).toBeVisible(agentWork)
  })

  // Every instance served requests, those about the app's box included.
  const aboutTheApp = balancer
    .requests()
    .filter(({ request }) => request.includes(`/api/applications/${application.id}/`))
  const servers = new Set(aboutTheApp.map(({ server }) => server))
  expect([...servers].sort()).toEqual(['sprout-a', 'sprout-b', 'sprout-c'])
  test.info().annotations.push({
    type: 'requests per instance',
    description: JSON.stringify(balancer.servedBy()),
  })
})
