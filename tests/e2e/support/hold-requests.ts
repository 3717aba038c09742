import type { Page } from '@playwright/test'

/**
 * Holds matching requests until `release()`, so a test can see a busy state that would otherwise
 * pass too fast to observe. `ready` resolves once the interception is in place.
 */
export function holdRequests(page: Page, url: string, method: string) {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const ready = page.route(url, async (route) => {
    if (route.request().method() === method) await released
    await route.fallback()
  })
  return { ready, release: () => release() }
}
