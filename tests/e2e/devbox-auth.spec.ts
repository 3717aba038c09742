import { expect, test } from '@playwright/test'
import { DevboxAuthPage } from './pages/devbox-auth-page.ts'
import { HomePage } from './pages/home-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { expectPath } from './support/location.ts'
import { signUpNewUser } from './support/session.ts'
import { newUser } from './support/users.ts'

test('a malformed or incomplete hand-off shows Authentication Error with a way home', async ({
  page,
  baseURL,
}) => {
  await signUpNewUser(page, 'Handoff')
  const auth = new DevboxAuthPage(page)

  await auth.goto({ auth: 'this is not base64 json!' })
  await expect(auth.errorHeading).toBeVisible()
  await expect(auth.message).toHaveText('Invalid authentication request: malformed auth parameter')

  await auth.goto({ return: '/somewhere' })
  await expect(auth.message).toHaveText('Invalid authentication request: missing devbox URL')

  // A dev box the user may not see: the server's reason is shown.
  const port = new URL(baseURL ?? '').port
  await auth.goto({ devbox: `http://nobody-000000.preview.localhost:${port}` })
  await expect(auth.errorHeading).toBeVisible()
  await expect(auth.message).toHaveText('Application not found')

  await auth.returnHomeLink.click()
  await expectPath(page, '/')
})

test('signed-out visitors sign in first and then continue the hand-off', async ({
  page,
  request,
  baseURL,
}) => {
  const user = newUser('Later')
  await request.post('/api/auth/sign-up/email', { data: user, headers: { Origin: baseURL ?? '' } })
  const auth = new DevboxAuthPage(page)
  const malformed = { auth: '@@@' }
  await auth.goto(malformed)
  await expectPath(page, '/signin')
  await new SignInPage(page).signIn(user)
  await expectPath(page, '/auth/devbox', malformed)
  await expect(auth.errorHeading).toBeVisible()
})

test("a card's Preview link opens the running app, signed in, in a new tab", async ({ page }) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 60_000)
  await signUpNewUser(page, 'Previewer')
  const name = uniqueApplicationName('Weather')
  const application = await createApplicationViaApi(page, name)
  const home = new HomePage(page)
  await home.goto()
  const preview = home.card(name).getByRole('link', { name: 'Preview' })
  await expect(preview).toHaveAttribute('target', '_blank')
  const [tab] = await Promise.all([page.waitForEvent('popup'), preview.click()])
  await expect(tab.getByText('Your app starts here.')).toBeVisible({ timeout: 30_000 })
  expect(new URL(tab.url()).origin).toBe(application.preview_url)
})
