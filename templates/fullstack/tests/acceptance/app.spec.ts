import { expect, test } from '@playwright/test'

// What the app must do, one test per thing the user asked for, named as they would say it; the
// check after every run starts them (README.md "Acceptance tests").

test('opens without errors', async ({ page }) => {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto('/')
  await expect(page.locator('#root')).not.toBeEmpty()
  expect(errors).toEqual([])
})

test('its server answers', async ({ request }) => {
  const response = await request.get('/api/health')
  expect(response.ok()).toBe(true)
})
