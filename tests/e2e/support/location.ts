import { expect, type Page } from '@playwright/test'

/** Waits until the page's path (and, when given, its query) is the expected one. */
export async function expectPath(page: Page, pathname: string, search?: Record<string, string>) {
  await expect.poll(() => new URL(page.url()).pathname).toBe(pathname)
  if (search) {
    const params = Object.fromEntries(new URL(page.url()).searchParams)
    expect(params).toMatchObject(search)
  }
}
