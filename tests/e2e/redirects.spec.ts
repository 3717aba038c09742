import { expect, test } from '@playwright/test'
import { HomePage } from './pages/home-page.ts'
import { Navbar } from './pages/navbar.ts'
import { OrganizationsPage } from './pages/organizations-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { uniqueApplicationName } from './support/applications.ts'
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

// Issue 28: a fresh browser's sign-in, and every shared link, went through /organizations.
test('a first sign-in with a single organization opens home in Personal, never the chooser', async ({
  page,
  request,
  baseURL,
}) => {
  const user = newUser('Single')
  await request.post('/api/auth/sign-up/email', { data: user, headers: { Origin: baseURL ?? '' } })
  const signInPage = new SignInPage(page)
  const organizations = new OrganizationsPage(page)

  await signInPage.goto()
  await signInPage.signIn(user)
  await expect(new HomePage(page).heading).toBeVisible()
  await expectPath(page, '/')
  await expect(organizations.chooseNotice).toHaveCount(0)
  await expect(new Navbar(page).currentOrganization).toHaveText('Personal')
  const userId = await currentUserId(page)
  const flag = await page.evaluate(
    (key) => localStorage.getItem(key),
    `hasSelectedPersonal_${userId}`,
  )
  expect(flag).toBe('true')
})

test('a first sign-in with several organizations asks which one, then goes on', async ({
  page,
  request,
  baseURL,
}) => {
  const user = newUser('Chooser')
  const headers = { Origin: baseURL ?? '' }
  await request.post('/api/auth/sign-up/email', { data: user, headers })
  const team = `Team ${Date.now().toString(36)}`
  const created = await request.post('/api/auth/organization/create', {
    data: { name: team, slug: `team-${Date.now().toString(36)}` },
    headers,
  })
  expect(created.ok()).toBe(true)
  const signInPage = new SignInPage(page)
  const organizations = new OrganizationsPage(page)

  await page.goto('/settings')
  await signInPage.signIn(user)
  await expectPath(page, '/organizations', { redirect: '/settings' })
  await expect(organizations.chooseNotice).toBeVisible()
  await organizations.switchTo(team)
  await expectPath(page, '/settings')
  await expect(new Navbar(page).currentOrganization).toHaveText(team)
})

test("a link to an app's builder opens it after sign-in, in the organization that owns it", async ({
  page,
  request,
  baseURL,
}) => {
  const user = newUser('Linked')
  const headers = { Origin: baseURL ?? '' }
  await request.post('/api/auth/sign-up/email', { data: user, headers })
  const team = `Team ${Date.now().toString(36)}`
  const created = await request.post('/api/auth/organization/create', {
    data: { name: team, slug: `team-${Date.now().toString(36)}` },
    headers,
  })
  const { id: teamId } = (await created.json()) as { id: string }
  const name = uniqueApplicationName('Shared')
  const application = await request.post('/api/applications', {
    headers: { ...headers, 'Organization-ID': teamId },
    data: { name, initial_prompt: 'A shared todo list', model: 'demo' },
  })
  expect(application.status()).toBe(201)
  const { id } = (await application.json()) as { id: string }
  const navbar = new Navbar(page)
  const organizations = new OrganizationsPage(page)
  const builderPath = `/applications/${id}/edit`

  // A fresh browser: sign in, and the builder opens in the team, without asking.
  await page.goto(builderPath)
  await expectPath(page, '/signin', { redirect: builderPath })
  await new SignInPage(page).signIn(user)
  await expect(page.getByTestId('navbar-application-name')).toHaveText(name)
  await expectPath(page, builderPath)
  await expect(navbar.currentOrganization).toHaveText(team)
  await expect(organizations.chooseNotice).toHaveCount(0)

  // Working in Personal, the same link switches to the team by itself.
  await navbar.switchTo('Personal')
  await expect(navbar.currentOrganization).toHaveText('Personal')
  await page.goto(builderPath)
  await expect(page.getByTestId('navbar-application-name')).toHaveText(name)
  await expect(navbar.currentOrganization).toHaveText(team)
  await expectPath(page, builderPath)
})

test('unknown paths show a not-found page with a way home', async ({ page }) => {
  await signUpNewUser(page, 'Lost')
  await page.goto('/no/such/page')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Return to Home' }).click()
  await expectPath(page, '/')
})
