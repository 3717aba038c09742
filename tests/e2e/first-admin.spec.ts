import { expect, test } from '@playwright/test'
import { AdminPage } from './pages/admin-page.ts'
import { HomePage } from './pages/home-page.ts'
import { Navbar } from './pages/navbar.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import { ownServer, withoutBoxes } from './support/own-server.ts'
import { newUser } from './support/users.ts'

// docs/product/auth.md "The first admin" and "Sign-up rules", on a fresh install of its own:
// nobody listed in ADMIN_EMAILS, so only the setup link its start printed makes an admin.
const server = ownServer(3111, { ...withoutBoxes, ADMIN_EMAILS: '' })
test.use({ baseURL: server.baseURL })
test.beforeAll(async () => {
  test.setTimeout(120_000)
  await server.start()
})
test.afterAll(() => server.stop())
test.afterEach(async ({ page }, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return
  const shown = await page
    .locator('body')
    .innerText({ timeout: 1_000 })
    .catch(() => '')
  console.log(`Page (${page.url()}):\n${shown}\n\nServer output:\n${server.output()}`)
})

test('the first sign-up is not admin, the setup link makes one, and closed sign-up still lets the invited in', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  const [, setupUrl] = await server.waitForOutput(
    /No admin yet\. Open (\S+\/setup\?code=\S+) to create the admin account\./,
  )

  // Whoever finds the install first gets an ordinary account.
  const early = newUser('Early')
  await new SignUpPage(page).goto()
  await new SignUpPage(page).signUp(early)
  await new HomePage(page).heading.waitFor()
  await new AdminPage(page).goto()
  await expect(new AdminPage(page).accessRestricted).toBeVisible()

  // The link's holder becomes the admin, and lands on the admin screen.
  const owner = newUser('Owner')
  const ownerContext = await browser.newContext({ baseURL: server.baseURL })
  const ownerPage = await ownerContext.newPage()
  await ownerPage.goto(setupUrl ?? '')
  await expect(ownerPage.getByRole('heading', { name: 'Set up Sprout' })).toBeVisible()
  await new SignUpPage(ownerPage).signUp(owner)
  await expect(new AdminPage(ownerPage).tabs).toBeVisible()

  // Spent: the same link now says so.
  await page.goto(setupUrl ?? '')
  await expect(
    page.getByText('This installation already has an admin. Ask them for access.'),
  ).toBeVisible()

  // The admin closes sign-up on the Access tab.
  await new AdminPage(ownerPage).tabs.getByRole('link', { name: 'Access' }).click()
  await ownerPage.getByRole('radio', { name: /^Closed/ }).check()
  await ownerPage.getByRole('button', { name: 'Save sign-up rules' }).click()
  await expect(ownerPage.getByText('Sign-up rules saved.')).toBeVisible()

  // A stranger is refused with the rule's text; the sign-in page offers no sign-up link.
  const strangerContext = await browser.newContext({ baseURL: server.baseURL })
  const stranger = await strangerContext.newPage()
  const closed = 'Sign-up is closed on this installation. Ask an admin for an invitation.'
  await new SignUpPage(stranger).goto()
  await expect(stranger.getByRole('status').filter({ hasText: closed })).toBeVisible()
  await new SignUpPage(stranger).signUp(newUser('Stranger'))
  await expect(stranger.getByRole('alert').filter({ hasText: closed })).toBeVisible()
  await stranger.goto('/signin')
  await expect(stranger.getByRole('heading', { name: 'Sign in to Sprout' })).toBeVisible()
  await expect(stranger.getByRole('main').getByRole('link', { name: 'Sign up' })).toHaveCount(0)
  // Issue 28: the navbar offered 'Sign up' too, leading to a form that refuses.
  await expect(new Navbar(stranger).signUpButton).toHaveCount(0)

  // An invited address still gets in.
  const guest = newUser('Guest')
  const headers = { Origin: server.baseURL }
  const created = await ownerPage.request.post('/api/auth/organization/create', {
    headers,
    data: { name: 'Team', slug: `team-${Date.now()}` },
  })
  const { id: organizationId } = (await created.json()) as { id: string }
  const invited = await ownerPage.request.post('/api/auth/organization/invite-member', {
    headers,
    data: { email: guest.email, role: 'member', organizationId },
  })
  expect(invited.status()).toBe(200)
  await new SignUpPage(stranger).goto()
  await new SignUpPage(stranger).signUp(guest)
  await expect(stranger).not.toHaveURL(/\/signup/)
  await ownerContext.close()
  await strangerContext.close()
})
