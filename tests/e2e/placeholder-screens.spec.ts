import { expect, test } from '@playwright/test'
import { expectPath } from './support/location.ts'
import { signUpNewUser } from './support/session.ts'

test('the screens later issues fill in show their titles', async ({ page }) => {
  await signUpNewUser(page, 'Explorer')
  const screens = [
    { path: '/settings', title: 'Settings' },
    { path: '/errors', title: 'Error Monitoring' },
    { path: '/applications/some-app/edit', title: 'Application not found' },
    { path: '/explore/some-idea', title: 'Exploration not found' },
    { path: '/unauthorized', title: 'Access denied' },
  ]
  for (const screen of screens) {
    await page.goto(screen.path)
    await expect(page.getByRole('heading', { name: screen.title, level: 1 })).toBeVisible()
  }
  await page.goto('/explore/some-idea')
  await page.getByRole('link', { name: 'Back to Applications' }).click()
  await expectPath(page, '/')
})
