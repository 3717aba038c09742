import { expect, type Page, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { HomePage } from './pages/home-page.ts'
import { OrganizationsPage } from './pages/organizations-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { UsersTab } from './pages/users-tab.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { expectPath } from './support/location.ts'
import { signInAsAdmin } from './support/session.ts'
import { newUser, type TestUser } from './support/users.ts'

// docs/product/admin.md "Users tab".

/** A new user signed up through the API, in the page's browser context (the form has its tests). */
async function signUpUser(page: Page, label: string): Promise<TestUser> {
  const user = newUser(label)
  await page.goto('/signin')
  const response = await page.request.post('/api/auth/sign-up/email', {
    headers: { Origin: new URL(page.url()).origin },
    data: { name: user.name, email: user.email, password: user.password },
  })
  expect(response.status()).toBe(200)
  return user
}

/** Home, in personal mode: a browser that never chose an organization is asked to first. */
async function openHome(page: Page) {
  await page.goto('/')
  const home = new HomePage(page)
  const organizations = new OrganizationsPage(page)
  await expect(home.heading.or(organizations.chooseNotice)).toBeVisible()
  if (await organizations.chooseNotice.isVisible()) await organizations.switchTo('Personal')
  await home.heading.waitFor()
}

test('banning a user signs their open builder out at once, and sign-in gives the reason', async ({
  page,
  browser,
}) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 60_000)
  const user = await signUpUser(page, 'Banned')
  await openHome(page)
  const application = await createApplicationViaApi(page, uniqueApplicationName('Doomed'))
  const organizationId = (
    (await (await page.request.get('/api/organizations?is_personal=true')).json()) as { id: string }
  ).id
  // The create dialog sends the first message: the builder opens on a conversation and listens.
  const sent = await page.request.post(`/api/demo/applications/${application.id}/message`, {
    headers: { Origin: new URL(page.url()).origin, 'Organization-ID': organizationId },
    data: { message: 'Make it blue', model: 'demo' },
  })
  expect(sent.status()).toBe(200)
  const listening = page.waitForResponse((response) => response.url().includes('/listen?'))
  await new BuilderPage(page).goto(application.id)
  expect((await listening).status()).toBe(200)
  await expect(page.getByText('Make it blue').first()).toBeVisible()

  const adminContext = await browser.newContext()
  const adminPage = await adminContext.newPage()
  await signInAsAdmin(adminPage)
  const users = new UsersTab(adminPage)
  await users.goto()
  await users.act(user.email, 'Ban...')
  await users.reason.fill('Spamming other users')
  await users.reason.press('Enter')
  await expect(users.status).toContainText(`${user.name} is banned.`)
  const bannedAt = Date.now()
  await expect(users.row(user.email)).toContainText('Banned')
  await expect(users.row(user.email)).toContainText('Spamming other users')

  await expectPath(page, '/signin', { expired: 'true' })
  expect(Date.now() - bannedAt).toBeLessThan(5_000)
  await new SignInPage(page).signIn(user)
  await expect(page.getByRole('alert')).toHaveText(
    'Your account has been suspended: Spamming other users',
  )
  await adminContext.close()
})

test('the ban dialog closes on Escape without banning', async ({ page }) => {
  const user = await signUpUser(page, 'Spared')
  await page.context().clearCookies()
  await signInAsAdmin(page)
  const users = new UsersTab(page)
  await users.goto()
  await users.act(user.email, 'Ban...')
  await expect(users.banDialog).toBeVisible()
  await users.reason.fill('Changed my mind')
  await page.keyboard.press('Escape')
  await expect(users.banDialog).toBeHidden()
  await expect(users.row(user.email)).not.toContainText('Banned')
})

test('the admin copies a reset link that sets a new password', async ({ page, browser }) => {
  const user = await signUpUser(page, 'Forgetful')
  await page.context().clearCookies()
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await signInAsAdmin(page)
  const users = new UsersTab(page)
  await users.goto()
  await users.act(user.email, 'Copy reset link')
  await expect(users.status).toContainText(`Reset link for ${user.email} copied.`)
  const link = await users.resetLink.inputValue()
  expect(link).toMatch(/\/reset-password\?token=/)
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)

  const resetContext = await browser.newContext()
  const resetPage = await resetContext.newPage()
  await resetPage.goto(link)
  await resetPage.getByLabel('Password', { exact: true }).fill('a-new-password-1')
  await resetPage.getByLabel('Confirm password').fill('a-new-password-1')
  await resetPage.getByRole('button', { name: 'Save new password' }).click()
  await expectPath(resetPage, '/signin', { reset: 'true' })
  await new SignInPage(resetPage).signIn({ email: user.email, password: 'a-new-password-1' })
  await expect.poll(() => new URL(resetPage.url()).pathname).not.toBe('/signin')
  await resetContext.close()
})
