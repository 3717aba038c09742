import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { HomePage } from './pages/home-page.ts'
import { Navbar } from './pages/navbar.ts'
import { collectAlerts } from './support/alerts.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { holdRequests } from './support/hold-requests.ts'
import { expectPath } from './support/location.ts'
import { signUpNewUser } from './support/session.ts'

test('a new user sees the empty applications list with a way to create one', async ({ page }) => {
  await signUpNewUser(page, 'Empty')
  const home = new HomePage(page)
  await expect(home.subtitle).toBeVisible()
  await expect(home.emptyState).toBeVisible()
  await page.getByRole('button', { name: 'Create your first application' }).click()
  await expect(home.createDialog.dialog).toBeVisible()
})

test('the create dialog refuses an empty description', async ({ page }) => {
  await signUpNewUser(page, 'Refused')
  const home = new HomePage(page)
  await home.openCreateDialog()
  const dialog = home.createDialog
  await expect(dialog.descriptionInput).toBeFocused()
  await expect(dialog.createButton).toBeDisabled()

  let created = false
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/applications')) created = true
  })
  await dialog.descriptionInput.fill('   \n  ')
  await expect(dialog.createButton).toBeDisabled()
  await dialog.nameInput.fill('Nameless wonder')
  await dialog.nameInput.press('Enter')
  await expect(dialog.dialog).toBeVisible()
  expect(created).toBe(false)

  await dialog.descriptionInput.fill('A habit tracker')
  await expect(dialog.createButton).toBeEnabled()
  await page.keyboard.press('Escape')
  await expect(dialog.dialog).toBeHidden()
  expect(created).toBe(false)

  // Opening it again starts afresh.
  await home.openCreateDialog()
  await expect(dialog.descriptionInput).toHaveValue('')
  await dialog.cancelButton.click()
  await expect(dialog.dialog).toBeHidden()
})

test('the create dialog opens prefilled from the address (an idea from an exploration)', async ({
  page,
}) => {
  await signUpNewUser(page, 'Prefilled')
  const home = new HomePage(page)
  await page.goto(
    `/?${new URLSearchParams({ create: '1', name: '2048', description: 'Plan trips' })}`,
  )
  await expect(home.createDialog.dialog).toBeVisible()
  await expect(home.createDialog.nameInput).toHaveValue('2048')
  await expect(home.createDialog.descriptionInput).toHaveValue('Plan trips')
  await home.createDialog.cancelButton.click()
  await expect(home.createDialog.dialog).toBeHidden()
  await expectPath(page, '/')
  expect(new URL(page.url()).search).toBe('')
})

test('creating an application with the Demo model opens its editor and lists it', async ({
  page,
}) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 60_000)
  await signUpNewUser(page, 'Creator')
  const home = new HomePage(page)
  const name = uniqueApplicationName('Recipe box')
  await home.openCreateDialog()
  const dialog = home.createDialog
  await expect(dialog.modelSelector.button).toHaveText('Demo')
  await dialog.fill({ name, description: 'A recipe box with tags and search' })

  // Hold the creation, then the first readiness answer, so each busy state can be seen.
  const creation = holdRequests(page, '**/api/applications', 'POST')
  const readiness = holdRequests(page, '**/api/applications/*/editor-ready', 'GET')
  await creation.ready
  await readiness.ready
  await dialog.createButton.click()
  await expect(dialog.creatingButton).toBeDisabled()
  await expect(dialog.progress).toHaveText('Creating application...')
  await expect(dialog.cancelButton).toBeDisabled()
  creation.release()
  await expect(dialog.progress).toHaveText('Starting the editor...')
  readiness.release()

  await expect
    .poll(() => new URL(page.url()).pathname, { timeout: DEVBOX_READY_TIMEOUT })
    .toMatch(/^\/applications\/[^/]+\/edit$/)
  const editorPath = new URL(page.url()).pathname
  await expect(page.getByTestId('navbar-application-name')).toHaveText(name)
  const builder = new BuilderPage(page)
  await expect(builder.previewPane).toBeVisible()
  await expect(page.getByRole('complementary', { name: 'Conversations' })).toBeVisible()
  // The builder signs the frame in itself: a fresh token, then the dev box's callback.
  await expect(builder.iframe).toHaveAttribute(
    'src',
    /^http:\/\/recipe-box-[a-z0-9-]+\.preview\.localhost:\d+\/__sprout\/auth\/callback\?token=[^&]+&return=%2F$/,
  )

  await new Navbar(page).brand.click()
  await expect(home.card(name)).toBeVisible()
  await expect(home.card(name).getByText('Application', { exact: true })).toBeVisible()
  await expect(home.card(name).getByRole('link', { name: 'Live' })).toHaveCount(0)
  // The whole card opens the editor.
  await home.card(name).click({ position: { x: 24, y: 24 } })
  await expectPath(page, editorPath)
  await expect(page.getByTestId('navbar-application-name')).toHaveText(name)
})

test('deleting an application asks first, then removes its card', async ({ page }) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 30_000)
  await signUpNewUser(page, 'Deleter')
  const name = uniqueApplicationName('Doomed')
  await createApplicationViaApi(page, name)
  const home = new HomePage(page)
  await home.goto()
  await expect(home.card(name)).toBeVisible()

  await home.deleteButton(name).click()
  await expect(home.deleteDialog).toContainText(`Are you sure you want to delete "${name}"?`)
  await expect(home.deleteDialog).toContainText('This action cannot be undone.')
  await home.deleteDialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(home.deleteDialog).toBeHidden()
  await expect(home.card(name)).toBeVisible()

  await home.deleteButton(name).click()
  await page.keyboard.press('Escape')
  await expect(home.deleteDialog).toBeHidden()
  await expect(home.card(name)).toBeVisible()

  // Hold the DELETE until the busy state has been seen.
  const deletion = holdRequests(page, '**/api/applications/*', 'DELETE')
  await deletion.ready
  await home.deleteButton(name).click()
  await home.deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(home.deleteDialog.getByRole('button', { name: 'Deleting...' })).toBeDisabled()
  deletion.release()
  await expect(home.deleteDialog).toBeHidden()
  await expect(home.card(name)).toHaveCount(0)
  await page.reload()
  await expect(home.emptyState).toBeVisible()
})

test('a failed creation says so in an alert and keeps the dialog open to try again', async ({
  page,
}) => {
  await signUpNewUser(page, 'Unlucky')
  const home = new HomePage(page)
  await home.openCreateDialog()
  await home.createDialog.fill({ description: 'A budget planner' })
  const alerts = collectAlerts(page)

  await page.route('**/api/applications', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 500, json: { error: 'An error occurred' } })
      : route.fallback(),
  )
  await home.createDialog.createButton.click()
  await expect.poll(() => alerts).toEqual(['Failed to create application. Please try again.'])
  await expect(home.createDialog.createButton).toBeEnabled()
  await expect(home.createDialog.descriptionInput).toHaveValue('A budget planner')
  await page.unroute('**/api/applications')

  // A dev box that failed to start ends the wait at once, with the same alert.
  await page.route('**/api/applications/*/editor-ready', (route) =>
    route.fulfill({ json: { ready: false, error: 'The dev box could not be started.' } }),
  )
  await home.createDialog.createButton.click()
  await expect
    .poll(() => alerts)
    .toEqual([
      'Failed to create application. Please try again.',
      'Failed to create application. Please try again.',
    ])
  await expect(home.createDialog.dialog).toBeVisible()
})
