import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { HomePage } from './pages/home-page.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { ownServer } from './support/own-server.ts'
import { adminUser } from './support/users.ts'

// Issue 20: opening the builder of an existing app whose dev server was stopped for idleness
// flashed the new app's 'Starting your app… Setting up its dev box' before 'Starting preview…'
// (docs/product/builder.md "Preview pane"). Its own server, so dev servers idle after 3 s.
const server = ownServer(3123, { DEVBOX_IDLE_MINUTES: '0.05' })
test.use({ baseURL: server.baseURL })
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 120_000 })
test.beforeAll(async () => {
  test.setTimeout(120_000)
  await server.start()
})
test.afterAll(() => server.stop())

test("an idle app's builder says 'Starting preview…', never the new app's 'Starting your app…'", async ({
  page,
}) => {
  // This server's first account, as in guest-book.spec.ts.
  await new SignUpPage(page).goto()
  await new SignUpPage(page).signUp(adminUser)
  await new HomePage(page).heading.waitFor()
  const application = await createApplicationViaApi(page, uniqueApplicationName('Idle'))
  // Nothing holds it now (no builder open, no run): its dev server is stopped.
  await server.waitForOutput(/Stopping an idle dev server/)

  // Every text the preview pane's status shows, from the first render on.
  await page.addInitScript(() => {
    const seen: string[] = []
    Object.assign(window, { previewTexts: seen })
    new MutationObserver(() => {
      const status = document.querySelector('aside[aria-label="Preview"] [role="status"]')
      const text = status?.textContent ?? ''
      if (text && seen.at(-1) !== text) seen.push(text)
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  await expect(builder.iframe).toBeVisible({ timeout: 60_000 })

  const seen = await page.evaluate(
    () => (window as unknown as { previewTexts: string[] }).previewTexts,
  )
  expect(seen.some((text) => text.startsWith('Starting preview…'))).toBe(true)
  expect(seen.filter((text) => text.includes('Starting your app…'))).toEqual([])
  expect(seen.filter((text) => text.includes('Setting up its dev box'))).toEqual([])
})
