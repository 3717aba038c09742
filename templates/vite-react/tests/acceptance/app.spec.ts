import { expect, test } from '@playwright/test'

// What the app must do, one test per thing the user asked for, named as they would say it; the
// check after every run starts them in a browser against the preview.

test('opens without errors', async ({ page }) => {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto('/')
  await expect(page.locator('#root')).not.toBeEmpty()
  expect(errors).toEqual([])
})
