import { type Browser, expect, type Page, test } from '@playwright/test'
import { AccountPage } from './pages/account-page.ts'
import { Navbar } from './pages/navbar.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { expectPath } from './support/location.ts'
import { newUser, type TestUser } from './support/users.ts'

/**
 * A new user signed up through the API in this page's browser (the sign-up form is auth.spec's);
 * the session cookie lands in the browser, which then opens `path`.
 */
async function signUpNewUser(page: Page, label: string, path = '/account'): Promise<TestUser> {
  const user = newUser(label)
  const response = await page.request.post('/api/auth/sign-up/email', {
    headers: { Origin: new URL(test.info().project.use.baseURL ?? '').origin },
    data: user,
  })
  expect(response.ok(), await response.text()).toBe(true)
  await page.goto(path)
  return user
}

/** Signs `user` in from a browser of its own (another device). */
async function signInElsewhere(browser: Browser, user: TestUser) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await new SignInPage(page).goto()
  await new SignInPage(page).signIn(user)
  await expect(page).not.toHaveURL(/\/signin/)
  return { context, page }
}

/** A same-origin better-auth call made with the page's cookie. */
async function authCall(page: Page, path: string, data: unknown) {
  const response = await page.request.post(`/api/auth${path}`, {
    headers: { Origin: new URL(page.url()).origin },
    data,
  })
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true)
  return (await response.json()) as { id: string }
}

test('changes the name from the user menu’s Account page', async ({ page }) => {
  await signUpNewUser(page, 'Renamer', '/organizations')
  const navbar = new Navbar(page)
  const account = new AccountPage(page)
  await navbar.goTo('Account')
  await expectPath(page, '/account')
  await account.heading.waitFor()
  await account.rename('Renamed Person')
  await expect(account.profile.getByText('Your name was saved.')).toBeVisible()
  await navbar.openMenu()
  await expect(navbar.menu).toContainText('Renamed Person')
  await page.reload()
  await expect(account.profile.getByLabel('Name')).toHaveValue('Renamed Person')
})

test('changes the password, then signs in with the new one', async ({ page }) => {
  const user = await signUpNewUser(page, 'Password')
  const account = new AccountPage(page)
  await account.goto()
  await account.changePassword(user.password, 'another-good-password', 'not-the-same-password')
  await expect(account.password.getByText('The new passwords do not match.')).toBeVisible()
  await account.changePassword('a-wrong-password', 'another-good-password')
  await expect(account.password.getByRole('alert')).toContainText('Invalid password')
  await account.changePassword(user.password, 'another-good-password')
  await expect(account.password.getByText('Your password was changed.')).toBeVisible()

  await new Navbar(page).signOut()
  const signIn = new SignInPage(page)
  await signIn.heading.waitFor()
  await signIn.signIn(user)
  await expect(page.getByRole('alert')).toBeVisible()
  await signIn.signIn({ email: user.email, password: 'another-good-password' })
  await expect.poll(() => new URL(page.url()).pathname).not.toBe('/signin')
  await account.goto()
})

test('lists two sessions and signs the other one out', async ({ page, browser }) => {
  const user = await signUpNewUser(page, 'Sessions')
  const other = await signInElsewhere(browser, user)
  const account = new AccountPage(page)
  await account.goto()
  await expect(account.sessions).toHaveCount(2)
  await expect(account.sessions.filter({ hasText: 'This device' })).toHaveCount(1)
  await expect(account.sessions.first()).toContainText('This device')
  await expect(account.sessionsSection).not.toContainText('token')

  await account.signOutOtherSessions()
  await expect(account.sessionsSection.getByText('Other sessions were signed out.')).toBeVisible()
  await expect(account.sessions).toHaveCount(1)
  await expect(account.sessionsSection.getByText('No other sessions.')).toBeVisible()

  // The other browser's next call is refused, and it lands on the sign-in screen.
  await other.page.goto('/account')
  await expectPath(other.page, '/signin')
  // This one stays signed in.
  await page.reload()
  await expect(account.heading).toBeVisible()
  await other.context.close()
})

test('deletes the account after typing its email', async ({ page }) => {
  const user = await signUpNewUser(page, 'Leaver')
  const account = new AccountPage(page)
  await account.goto()
  await account.openDeleteDialog()
  const dialog = account.deleteDialog
  await expect(dialog.getByRole('list', { name: 'What will be deleted' })).toContainText(
    `Your account ${user.email} and all its sessions`,
  )
  await expect(dialog).toContainText('No applications')
  await expect(dialog).toContainText('Organizations only you belong to: Personal')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  await account.openDeleteDialog()
  const confirm = dialog.getByLabel(`Type ${user.email} to confirm`)
  const deleteButton = dialog.getByRole('button', { name: 'Delete account' })
  await confirm.fill('someone@else.test')
  await expect(deleteButton).toBeDisabled()
  await confirm.fill(user.email)
  await expect(deleteButton).toBeEnabled()
  await confirm.press('Enter')
  await expectPath(page, '/signin')
  const signIn = new SignInPage(page)
  await signIn.heading.waitFor()
  await signIn.signIn(user)
  await expect(page.getByRole('alert')).toBeVisible()
  await expectPath(page, '/signin')
})

test('refuses deletion while the only owner of an organization with members', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000)
  await signUpNewUser(page, 'Owner')
  const memberContext = await browser.newContext()
  const memberPage = await memberContext.newPage()
  const member = await signUpNewUser(memberPage, 'Member')
  const name = `Keepers ${Date.now().toString(36)}`
  const organization = await authCall(page, '/organization/create', {
    name,
    slug: `keepers-${Date.now().toString(36)}`,
    keepCurrentActiveOrganization: true,
  })
  const invitation = await authCall(page, '/organization/invite-member', {
    email: member.email,
    role: 'member',
    organizationId: organization.id,
  })
  await authCall(memberPage, '/organization/accept-invitation', { invitationId: invitation.id })
  await memberContext.close()

  const account = new AccountPage(page)
  await account.goto()
  await account.openDeleteDialog()
  const dialog = account.deleteDialog
  await expect(dialog.getByRole('list', { name: 'Organizations that block deletion' })).toHaveText(
    name,
  )
  await expect(dialog.getByRole('button', { name: 'Delete account' })).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toBeHidden()
  await page.reload()
  await expect(account.heading).toBeVisible()
})
