import { expect, test } from '@playwright/test'
import { HomePage } from './pages/home-page.ts'
import { Navbar } from './pages/navbar.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import { expectPath } from './support/location.ts'
import { signUpNewUser } from './support/session.ts'
import { newUser } from './support/users.ts'

test('a new user signs up, lands on Applications in personal mode, signs out and back in', async ({
  page,
}) => {
  const user = newUser('Founder')
  const signUpPage = new SignUpPage(page)
  const signInPage = new SignInPage(page)
  const home = new HomePage(page)
  const navbar = new Navbar(page)

  await signUpPage.goto()
  await signUpPage.signUp(user)
  await expectPath(page, '/')
  await expect(home.heading).toBeVisible()
  await expect(home.subtitle).toBeVisible()
  await expect(page.getByText('No applications yet')).toBeVisible()
  await expect(navbar.currentOrganization).toHaveText('Personal')

  await navbar.openMenu()
  await expect(navbar.menu.getByText(user.email)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(navbar.menu).toBeHidden()

  await navbar.signOut()
  await expectPath(page, '/signin')
  await expect(signInPage.heading).toBeVisible()
  await expect(navbar.signUpButton).toBeVisible()
  await expect(navbar.userButton).toBeHidden()

  await signInPage.signIn(user)
  await expectPath(page, '/')
  await expect(home.heading).toBeVisible()
  await expect(navbar.currentOrganization).toHaveText('Personal')
})

test("a wrong password shows the server's message and keeps the user on /signin", async ({
  page,
}) => {
  const user = await signUpNewUser(page, 'Forgetful')
  await new Navbar(page).signOut()
  const signInPage = new SignInPage(page)
  await signInPage.signIn({ email: user.email, password: 'not-the-password' })
  await expect(page.getByRole('alert')).toContainText(/invalid email or password/i)
  await expectPath(page, '/signin')
})

test('an expired session signs the user out and says so on /signin', async ({ page, context }) => {
  await signUpNewUser(page, 'Expired')
  await context.clearCookies()
  // Navigate inside the running app, so the next API call is the one that meets the 401.
  await page.evaluate(() => {
    window.history.pushState({}, '', '/admin')
    window.dispatchEvent(new PopStateEvent('popstate'))
  })
  await expectPath(page, '/signin', { expired: 'true' })
  await expect(page.getByText('Your session has expired. Please sign in again.')).toBeVisible()
  await expect(new Navbar(page).signUpButton).toBeVisible()
})

// The default PUBLIC_URL names localhost; its loopback aliases are the same server and work too.
for (const host of ['127.0.0.1', '[::1]']) {
  test.describe(`at http://${host} instead of localhost`, () => {
    test.use({
      baseURL: async ({ baseURL }, use) => use(baseURL?.replace('//localhost:', `//${host}:`)),
    })

    test('a new user signs up, signs out and back in', async ({ page }) => {
      const user = newUser('Loopback')
      const home = new HomePage(page)
      const navbar = new Navbar(page)
      const signUpPage = new SignUpPage(page)
      await signUpPage.goto()
      expect(new URL(page.url()).hostname).toBe(host)
      await signUpPage.signUp(user)
      await expectPath(page, '/')
      await expect(home.heading).toBeVisible()
      await navbar.signOut()
      await expectPath(page, '/signin')
      await new SignInPage(page).signIn(user)
      await expectPath(page, '/')
      await expect(navbar.currentOrganization).toHaveText('Personal')
    })
  })
}
