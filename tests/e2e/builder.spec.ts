import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { expectPath } from './support/location.ts'
import { signInAsAdmin, signUpNewUser } from './support/session.ts'

const starterText = 'Your app starts here.'

test('an unknown application shows a clear not-found page with a way home', async ({ page }) => {
  await signUpNewUser(page, 'Wanderer')
  const builder = new BuilderPage(page)
  await builder.goto('no-such-application')
  await expect(builder.notFoundHeading).toBeVisible()
  await page.getByRole('link', { name: 'Back to Applications' }).click()
  await expectPath(page, '/')
})

test('a non-admin gets the preview tools but no deploy button', async ({ page }) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 60_000)
  await signUpNewUser(page, 'Builder')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Notes'))
  const builder = new BuilderPage(page)
  const adminStatus = page.waitForResponse('**/api/admin/status')
  await builder.goto(application.id)
  await adminStatus
  await expect(page.getByTestId('navbar-application-name')).toHaveText(application.name)
  await expect(builder.refreshButton).toBeEnabled()
  await expect(builder.vaultButton).toBeEnabled()
  await expect(builder.vaultButton).toHaveAttribute('title', 'Vault Secrets')
  await expect(builder.openInNewWindowLink).toHaveAttribute(
    'href',
    `/auth/devbox?${new URLSearchParams({ devbox: application.preview_url, return: '/' })}`,
  )
  await expect(builder.deployButton).toHaveCount(0)
  await expect(builder.redeployButton).toHaveCount(0)
  await expect(builder.liveLink).toHaveCount(0)

  // 250px until the user clicks into the preview, 500px while working in it.
  await expect(builder.iframe).toBeAttached()
  expect(await builder.paneWidth()).toBe(250)
  await builder.interactCover.click()
  await expect(builder.interactCover).toBeHidden()
  await expect.poll(() => builder.paneWidth()).toBe(500)
  await page.getByTestId('navbar-application-name').click()
  await expect(builder.interactCover).toBeVisible()
  await expect.poll(() => builder.paneWidth()).toBe(250)

  // Refresh signs the frame in again with a fresh single-use token.
  const before = await builder.iframe.getAttribute('src')
  await builder.refreshButton.click()
  await expect(builder.iframe).not.toHaveAttribute('src', before ?? '')

  // Open in new window goes through the hand-off and lands on the running app, signed in.
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    builder.openInNewWindowLink.click(),
  ])
  await expect(popup.getByText(starterText)).toBeVisible({ timeout: 30_000 })
  expect(new URL(popup.url()).origin).toBe(application.preview_url)
})

test('the preview frame shows the running starter app', async ({ page }) => {
  // Guards decision 006: the preview cookie must be Partitioned to live in the builder's frame.
  test.setTimeout(DEVBOX_READY_TIMEOUT + 60_000)
  await signUpNewUser(page, 'Viewer')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Gallery'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  await expect(builder.frame.getByText(starterText)).toBeVisible({ timeout: 20_000 })
})

test('an admin deploys, and the Live link serves the built app', async ({ page }) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 180_000)
  await signInAsAdmin(page)
  const application = await createApplicationViaApi(page, uniqueApplicationName('Launch'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  await expect(builder.deployButton).toHaveAttribute('title', 'Deploy')
  await expect(builder.liveLink).toHaveCount(0)

  // A failed build shows its output; a deploy that never reached the server says so.
  const deployUrl = `**/api/applications/${application.id}/deploy`
  await page.route(deployUrl, (route) =>
    route.fulfill({ status: 422, json: { error: 'vite build failed\nsrc/App.tsx: oops' } }),
  )
  await builder.deployButton.click()
  await expect(builder.deployNotice).toContainText('Deployment failed: vite build failed')
  await expect(builder.deployNotice).toContainText('src/App.tsx: oops')
  await builder.deployNotice.getByRole('button', { name: 'Dismiss' }).click()
  await expect(builder.deployNotice).toBeHidden()
  await page.unroute(deployUrl)
  await page.route(deployUrl, (route) => route.abort('connectionrefused'))
  await builder.deployButton.click()
  await expect(builder.deployNotice).toHaveText('Failed to initiate deployment')
  await page.unroute(deployUrl)
  await expect(builder.liveLink).toHaveCount(0)

  await builder.deployButton.click()
  await expect(builder.toolbar.getByRole('button', { name: 'Deploying...' })).toBeDisabled()
  await expect(builder.deployNotice).toContainText('Deployment initiated successfully!', {
    timeout: 150_000,
  })
  await expect(builder.redeployButton).toBeVisible()
  await expect(builder.liveLink).toBeVisible()
  const liveUrl = await builder.liveLink.getAttribute('href')
  expect(liveUrl).toMatch(/^http:\/\/launch-[a-z0-9-]+\.apps\.localhost:\d+$/)

  await page.goto(liveUrl ?? '')
  await expect(page.getByText(starterText)).toBeVisible()
  await page.goto('/')
  await expect(
    page.getByRole('article', { name: application.name }).getByRole('link', { name: 'Live' }),
  ).toHaveAttribute('href', liveUrl ?? '')
})
