import { type Browser, expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { signInAsAdmin, signUpNewUser } from './support/session.ts'
import { adminUser } from './support/users.ts'

// docs/product/deploys.md "Who may open a deploy": an organization's app opens to its members,
// who sign in through Sprout and come back to the page they asked for; others get a 403 page.

const starterText = 'Your app starts here.'

/** A browser of its own: no Sprout session, no app cookie. */
async function freshPage(browser: Browser) {
  const context = await browser.newContext()
  return { page: await context.newPage(), close: () => context.close() }
}

test('an organization’s app opens to its members only, and to anyone once public', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 240_000)
  await signInAsAdmin(page)
  const team = `Private ${Date.now().toString(36)}`
  const created = await page.request.post('/api/auth/organization/create', {
    data: { name: team, slug: `private-${Date.now().toString(36)}` },
    headers: { Origin: baseURL ?? '' },
  })
  expect(created.ok()).toBe(true)
  const organizationId = ((await created.json()) as { id: string }).id
  const application = await createApplicationViaApi(
    page,
    uniqueApplicationName('Intranet'),
    'An internal tool',
    organizationId,
  )
  const deployed = await page.request.post(`/api/applications/${application.id}/deploy`, {
    headers: { Origin: baseURL ?? '', 'Organization-ID': organizationId },
    timeout: 180_000,
  })
  expect(deployed.status()).toBe(200)
  const prodUrl = ((await deployed.json()) as { prod_url: string }).prod_url

  // The builder says who may open it, and its admin changes that.
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  const accessButton = builder.toolbar.getByRole('button', { name: 'Who can open it' })
  await expect(accessButton).toHaveAttribute('data-visibility', 'organization')
  await accessButton.click()
  const dialog = page.getByRole('dialog', { name: 'Who can open it' })
  await expect(dialog.getByRole('radio', { name: `Members of ${team}` })).toBeChecked()
  await dialog.getByRole('radio', { name: 'Only people I list' }).check()
  await dialog.getByLabel('Email address').fill('Friend@Example.com')
  await dialog.getByLabel('Email address').press('Enter')
  await expect(dialog.getByRole('button', { name: 'Remove friend@example.com' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(accessButton).toHaveAttribute('data-visibility', 'people')
  await page.reload()
  await accessButton.click()
  await expect(dialog.getByRole('button', { name: 'Remove friend@example.com' })).toBeVisible()
  await dialog.getByRole('radio', { name: `Members of ${team}` }).check()
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(accessButton).toHaveAttribute('data-visibility', 'organization')

  // Anonymous: Sprout's sign-in, then back on the page asked for.
  const anonymous = await freshPage(browser)
  await anonymous.page.goto(`${prodUrl}/reports?week=48`)
  await expect(anonymous.page).toHaveURL(/\/signin/)
  await new SignInPage(anonymous.page).signIn(adminUser)
  await expect(anonymous.page).toHaveURL(`${prodUrl}/reports?week=48`, { timeout: 30_000 })
  await expect(anonymous.page.getByText(starterText)).toBeVisible()
  await anonymous.close()

  // Signed in, but not a member: a page that says whose app it is.
  const outsider = await freshPage(browser)
  const outsiderUser = await signUpNewUser(outsider.page, 'Outsider')
  // Through Sprout's hand-off (a page of the product's own), then the app's 403 page.
  await outsider.page.goto(prodUrl)
  await expect(
    outsider.page.getByRole('heading', { name: 'You don’t have access to this app' }),
  ).toBeVisible()
  await expect(
    outsider.page.getByText(
      `This app belongs to ${team}. Ask an admin of ${team} to give ${outsiderUser.email.toLowerCase()} access.`,
    ),
  ).toBeVisible()

  // Public: open to anyone at once, the outsider's open tab included.
  await accessButton.click()
  await dialog.getByRole('radio', { name: 'Anyone with the link' }).check()
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(accessButton).toHaveAttribute('data-visibility', 'public')
  await outsider.page.reload()
  await expect(outsider.page.getByText(starterText)).toBeVisible()
  await outsider.close()
  const stranger = await freshPage(browser)
  await stranger.page.goto(prodUrl)
  await expect(stranger.page.getByText(starterText)).toBeVisible()
  await stranger.close()
})
