import { expect, test } from '@playwright/test'
import { AdminPage } from './pages/admin-page.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { expectPath } from './support/location.ts'
import { signUpNewUser } from './support/session.ts'
import { adminUser } from './support/users.ts'

test('a non-admin sees Access Restricted on every admin tab', async ({ page }) => {
  await signUpNewUser(page, 'Member')
  const admin = new AdminPage(page)
  for (const path of ['/admin', '/admin/evals', '/admin/pool'] as const) {
    await admin.goto(path)
    await expect(admin.accessRestricted).toBeVisible()
    await expect(admin.noPermission).toBeVisible()
    await expect(admin.tabs).toBeHidden()
  }
})

test('the admin sees the Integrations, Conversation Evaluations and Devbox Pool tabs', async ({
  page,
}) => {
  const admin = new AdminPage(page)
  await admin.goto('/admin/pool')
  await expectPath(page, '/signin', { redirect: '/admin/pool' })
  await new SignInPage(page).signIn(adminUser)
  await expectPath(page, '/admin/pool')
  await expect(page.getByRole('heading', { name: 'Devbox Pool' })).toBeVisible()

  await admin.tab('Integrations').click()
  await expectPath(page, '/admin')
  await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible()
  await expect(admin.tab('Integrations')).toHaveAttribute('aria-current', 'page')

  await admin.tab('Conversation Evaluations').click()
  await expectPath(page, '/admin/evals')
  await expect(page.getByRole('heading', { name: 'Conversation Evaluations' })).toBeVisible()
  await expect(admin.accessRestricted).toBeHidden()
})
