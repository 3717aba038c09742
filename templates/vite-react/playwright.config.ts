import { defineConfig } from '@playwright/test'

// Acceptance tests (tests/acceptance/): what the app must do, in a real browser. Inside Sprout
// the check after every run starts them in the app's box, against its dev server
// (SPROUT_BASE_URL), with the box's Chromium (CHROMIUM_PATH); elsewhere `npx playwright test`
// starts `npm run dev` itself.
const baseURL = process.env.SPROUT_BASE_URL || 'http://127.0.0.1:5173'
const chromium = process.env.CHROMIUM_PATH

export default defineConfig({
  testDir: 'tests/acceptance',
  outputDir: '.cache/playwright',
  timeout: 15_000,
  expect: { timeout: 5_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  use: {
    baseURL,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: chromium
      ? {
          executablePath: chromium,
          args: (process.env.CHROMIUM_ARGS ?? '').split(' ').filter(Boolean),
        }
      : {},
  },
  webServer: process.env.SPROUT_BASE_URL
    ? undefined
    : { command: 'npm run dev', url: baseURL, reuseExistingServer: true },
})
