import { expect, type Page } from '@playwright/test'
import { HomePage } from '../pages/home-page.ts'
import { OrganizationsPage } from '../pages/organizations-page.ts'
import { SignInPage } from '../pages/sign-in-page.ts'
import { SignUpPage } from '../pages/sign-up-page.ts'
import { adminUser, newUser, type TestUser } from './users.ts'

/** Signs a brand-new user up through the form; they land on the home page in personal mode. */
export async function signUpNewUser(page: Page, label = 'User'): Promise<TestUser> {
  const user = newUser(label)
  const signUpPage = new SignUpPage(page)
  await signUpPage.goto()
  await signUpPage.signUp(user)
  await new HomePage(page).heading.waitFor()
  return user
}

/** The signed-in user's id, as better-auth reports it. */
export async function currentUserId(page: Page): Promise<string> {
  const response = await page.request.get('/api/auth/get-session')
  const session = (await response.json()) as { user: { id: string } }
  return session.user.id
}

/** The id of one of the signed-in user's organizations ('Personal' for the personal one). */
export async function organizationIdByName(page: Page, name: string): Promise<string> {
  const response = await page.request.get('/api/auth/organization/list')
  const organizations = (await response.json()) as { id: string; name: string }[]
  const found = organizations.find((organization) => organization.name === name)
  if (!found) throw new Error(`The user has no organization named ${name}`)
  return found.id
}

/** Signs the installation's admin in, working in their personal organization. */
export async function signInAsAdmin(page: Page): Promise<void> {
  await new SignInPage(page).goto()
  await new SignInPage(page).signIn(adminUser)
  // A browser that never chose an organization is asked to choose one first: wait for the screen
  // it lands on, not for the address, which reads `/` before the redirect to /organizations.
  const home = new HomePage(page)
  const organizations = new OrganizationsPage(page)
  await expect(home.heading.or(organizations.chooseNotice)).toBeVisible()
  if (await organizations.chooseNotice.isVisible()) await organizations.switchTo('Personal')
  await home.heading.waitFor()
}
