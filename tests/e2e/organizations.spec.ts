import { expect, test } from '@playwright/test'
import { HomePage } from './pages/home-page.ts'
import { Navbar } from './pages/navbar.ts'
import { OrganizationsPage } from './pages/organizations-page.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import { expectPath } from './support/location.ts'
import { currentUserId, organizationIdByName, signUpNewUser } from './support/session.ts'
import { newUser } from './support/users.ts'

const personalFlag = (userId: string) => `hasSelectedPersonal_${userId}`

function uniqueName(label: string) {
  return `${label} ${Date.now().toString(36)}`
}

test('create an organization, then switch to it and back from /organizations and the user menu', async ({
  page,
}) => {
  const owner = await signUpNewUser(page, 'Owner')
  const userId = await currentUserId(page)
  const navbar = new Navbar(page)
  const organizations = new OrganizationsPage(page)
  const home = new HomePage(page)
  const name = uniqueName('Acme')
  const readFlag = () => page.evaluate((key) => localStorage.getItem(key), personalFlag(userId))

  await navbar.manageOrganizations()
  await expectPath(page, '/organizations')
  await expect(organizations.card('Personal')).toContainText('Current')
  await organizations.create(name)
  await expect(organizations.members(name)).toHaveCount(1)
  await expect(organizations.members(name).first()).toContainText(owner.email)
  await expect(organizations.members(name).first()).toContainText('Owner')
  // Creating does not switch by itself.
  await expect(organizations.card('Personal')).toContainText('Current')

  // The home screen's first API call already acts in the new organization.
  const modelsRequest = page.waitForRequest('**/api/models')
  await organizations.switchTo(name)
  await expectPath(page, '/')
  await expect(home.heading).toBeVisible()
  await expect(navbar.currentOrganization).toHaveText(name)
  expect(await readFlag()).toBeNull()
  expect((await modelsRequest).headers()['organization-id']).toBe(
    await organizationIdByName(page, name),
  )

  await navbar.switchTo('Personal')
  await expect(navbar.currentOrganization).toHaveText('Personal')
  expect(await readFlag()).toBe('true')

  await navbar.switchTo(name)
  await expect(navbar.currentOrganization).toHaveText(name)
  expect(await readFlag()).toBeNull()
  await page.reload()
  await expect(navbar.currentOrganization).toHaveText(name)

  await navbar.manageOrganizations()
  await expect(organizations.card(name)).toContainText('Current')
  await organizations.switchTo('Personal')
  await expectPath(page, '/')
  await expect(navbar.currentOrganization).toHaveText('Personal')
})

test('personal mode is remembered per user across reloads', async ({ page }) => {
  const navbar = new Navbar(page)
  const first = await signUpNewUser(page, 'First')
  const firstId = await currentUserId(page)
  const flags = () =>
    page.evaluate(() =>
      Object.fromEntries(
        Object.keys(localStorage)
          .filter((key) => key.startsWith('hasSelectedPersonal_'))
          .map((key) => [key, localStorage.getItem(key)]),
      ),
    )

  expect(await flags()).toEqual({ [personalFlag(firstId)]: 'true' })
  await page.reload()
  await expectPath(page, '/')
  await expect(navbar.currentOrganization).toHaveText('Personal')

  // A second user on the same browser gets a flag of their own.
  await navbar.signOut()
  await signUpNewUser(page, 'Second')
  const secondId = await currentUserId(page)
  expect(await flags()).toEqual({
    [personalFlag(firstId)]: 'true',
    [personalFlag(secondId)]: 'true',
  })

  // Without the flag (and no active organization), a user whose only organization is Personal
  // is not asked: Personal is chosen, and remembered, again.
  await page.evaluate((key) => localStorage.removeItem(key), personalFlag(secondId))
  await page.reload()
  await expect(new HomePage(page).heading).toBeVisible()
  await expect(navbar.currentOrganization).toHaveText('Personal')
  expect((await flags())[personalFlag(secondId)]).toBe('true')

  // The first user's choice was kept for them.
  await navbar.signOut()
  await page.getByLabel('Email').fill(first.email)
  await page.getByLabel('Password').fill(first.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expectPath(page, '/')
  await expect(navbar.currentOrganization).toHaveText('Personal')
})

test("a needs-organization screen shows 'Setting up your account...' while it loads", async ({
  page,
}) => {
  await signUpNewUser(page, 'Patient')
  await page.route('**/api/organizations?*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await route.continue()
  })
  await page.reload()
  await expect(page.getByText('Setting up your account...')).toBeVisible()
  await expect(new HomePage(page).heading).toBeVisible()
})

test("a failed organization lookup shows the catalogue's message with its status and a retry", async ({
  page,
}) => {
  await signUpNewUser(page, 'Unlucky')
  let failing = true
  await page.route('**/api/organizations?is_personal=true', async (route) => {
    if (!failing) return route.continue()
    await route.fulfill({ status: 404, json: { error: 'Personal organization not found' } })
  })
  await page.reload()
  await expect(page.getByRole('alert')).toHaveText('Failed to fetch personal organization: 404')
  failing = false
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(new HomePage(page).heading).toBeVisible()
})

test('an invited member joins through the link, appears in the list and can leave', async ({
  page,
  browser,
}) => {
  // Two sign-ups, an invitation, a join and a leave: more steps than the default 30 s allows
  // on a loaded machine.
  test.setTimeout(120_000)
  const organizations = new OrganizationsPage(page)
  await signUpNewUser(page, 'Inviter')
  const name = uniqueName('Team')
  const invitee = newUser('Invitee')
  await organizations.goto()
  await organizations.create(name)
  const link = await organizations.invite(name, invitee.email)
  expect(link).toMatch(/\/invitations\/[\w-]+$/)

  // The invitee opens the link signed out, signs up from there and comes back to it.
  const inviteeContext = await browser.newContext()
  const inviteePage = await inviteeContext.newPage()
  await inviteePage.goto(link)
  await expectPath(inviteePage, '/signin')
  await inviteePage.getByRole('main').getByRole('link', { name: 'Sign up' }).click()
  await expectPath(inviteePage, '/signup')
  await new SignUpPage(inviteePage).signUp(invitee)
  await expectPath(inviteePage, new URL(link).pathname)
  await expect(inviteePage.getByRole('heading', { name: `Join ${name}` })).toBeVisible()
  // From here on no call may fail: no invitation read after it was accepted, no member list of
  // an organization just left.
  const failedCalls: string[] = []
  inviteePage.on('response', (response) => {
    if (response.status() >= 400) failedCalls.push(`${response.status()} ${response.url()}`)
  })
  await inviteePage.getByRole('button', { name: 'Accept invitation' }).click()
  await expectPath(inviteePage, '/')
  const inviteeNavbar = new Navbar(inviteePage)
  await expect(inviteeNavbar.currentOrganization).toHaveText(name)

  await page.reload()
  await organizations.managePanel(name).waitFor()
  await expect(organizations.members(name)).toHaveCount(2)
  await expect(organizations.members(name).filter({ hasText: invitee.email })).toContainText(
    'Member',
  )

  const inviteeOrganizations = new OrganizationsPage(inviteePage)
  await inviteeNavbar.manageOrganizations()
  await inviteeOrganizations.manage(name)
  await inviteeOrganizations.leave(name)
  await expect(inviteeOrganizations.card(name)).toHaveCount(0)
  await expect(inviteeOrganizations.card('Personal')).toContainText('Current')
  await expect(inviteeNavbar.currentOrganization).toHaveText('Personal')
  await inviteePage.reload()
  await expect(inviteeNavbar.currentOrganization).toHaveText('Personal')
  expect(failedCalls).toEqual([])
  await inviteeContext.close()
})
