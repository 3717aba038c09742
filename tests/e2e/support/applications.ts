import { expect, type Page } from '@playwright/test'

export type CreatedApplication = { id: string; name: string; preview_url: string }

/** Generous: the machine is shared, and a cold dev box installs its dependencies first. */
export const DEVBOX_READY_TIMEOUT = 90_000

let counter = 0

/** A name no other test uses. */
export function uniqueApplicationName(label: string): string {
  counter += 1
  return `${label} ${Date.now().toString(36)}${process.pid}${counter}`
}

async function personalOrganizationId(page: Page): Promise<string> {
  const response = await page.request.get('/api/organizations?is_personal=true')
  expect(response.ok()).toBe(true)
  return ((await response.json()) as { id: string }).id
}

/**
 * Creates an application in the signed-in user's personal organization (or `organizationId`)
 * through the API (the UI flow has its own test), and waits until its dev box is ready.
 */
export async function createApplicationViaApi(
  page: Page,
  name: string,
  description = 'A tiny todo list',
  organizationId?: string,
): Promise<CreatedApplication> {
  const baseURL = new URL(page.url()).origin
  const headers = {
    Origin: baseURL,
    'Organization-ID': organizationId ?? (await personalOrganizationId(page)),
  }
  const created = await page.request.post('/api/applications', {
    headers,
    data: { name, initial_prompt: description, model: 'demo' },
  })
  expect(created.status()).toBe(201)
  const { id } = (await created.json()) as { id: string }
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`/api/applications/${id}/editor-ready`, { headers })
        return ((await answer.json()) as { ready: boolean }).ready
      },
      { timeout: DEVBOX_READY_TIMEOUT, intervals: [1000] },
    )
    .toBe(true)
  const application = await page.request.get(`/api/applications/${id}`, { headers })
  return (await application.json()) as CreatedApplication
}
