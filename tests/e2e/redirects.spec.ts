import { expect, test } from '@playwright/test'
import { HomePage } from './pages/home-page.ts'
import { Navbar } from './pages/navbar.ts'
import { OrganizationsPage } from './pages/organizations-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { expectPath } from './support/location.ts'
import { currentUserId, signUpNewUser } from './support/session.ts'
import { newUser } from './support/users.ts'

test('signed-out visitors go to /signin, and back to where they were going after it', async ({
  page,
  request,
  baseURL,
}) => {
  // Signed up through the API (its own cookie jar), so this browser stays signed out.
  const user = newUser('Returning')
  const signUp = await request.post('/api/auth/sign-up/email', {
    data: user,
    headers: { Origin: baseURL ?? '' },
  })
  expect(signUp.ok()).toBe(true)
  const navbar = new Navbar(page)

  await page.goto('/')
  await expectPath(page, '/signin')
  await expect(navbar.signUpButton).toBeVisible()

  await page.goto('/unauthorized')
  await expect(navbar.signInButton).toBeVisible()

  await page.goto('/organizations')
  await expectPath(page, '/signin', { redirect: '/organizations' })
  await new SignInPage(page).signIn(user)
  await expectPath(page, '/organizations')
  await expect(new OrganizationsPage(page).heading).toBeVisible()
})

test('signed-in users are sent home from /signin and /signup', async ({ page }) => {
  await signUpNewUser(page, 'Settled')
  await page.goto('/signin')
  await expectPath(page, '/')
  await page.goto('/signup')
  await expectPath(page, '/')
  await expect(new HomePage(page).heading).toBeVisible()
})

test('a first sign-in with no organization chosen goes to /organizations to choose', async ({
  page,
  request,
  baseURL,
}) => {
  const user = newUser('Chooser')
  await request.post('/api/auth/sign-up/email', { data: user, headers: { Origin: baseURL ?? '' } })
  const signInPage = new SignInPage(page)
  const organizations = new OrganizationsPage(page)

  await signInPage.goto()
  await signInPage.signIn(user)
  await expectPath(page, '/organizations')
  await expect(organizations.chooseNotice).toBeVisible()

  await organizations.switchTo('Personal')
  await expectPath(page, '/')
  await expect(new Navbar(page).currentOrganization).toHaveText('Personal')
  const userId = await currentUserId(page)
  const flag = await page.evaluate(
    (key) => localStorage.getItem(key),
    `hasSelectedPersonal_${userId}`,
  )
  expect(flag).toBe('true')
})

test('unknown paths show a not-found page with a way home', async ({ page }) => {
  await signUpNewUser(page, 'Lost')
  await page.goto('/no/such/page')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Return to Home' }).click()
  await expectPath(page, '/')
})
