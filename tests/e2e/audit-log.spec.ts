import { expect, test } from '@playwright/test'
import { SignInPage } from './pages/sign-in-page.ts'
import { expectPath } from './support/location.ts'
import { adminUser } from './support/users.ts'

// docs/product/audit.md: a failed sign-in, then the admin finds it on the Audit tab by its
// action, and the export carries the same filters.
test('the admin finds a failed sign-in in the audit log, and exports what the filters show', async ({
  page,
  baseURL,
}) => {
  const stranger = `nobody-${Date.now()}@example.com`
  const failed = await page.request.post('/api/auth/sign-in/email', {
    data: { email: stranger, password: 'not the password' },
    headers: { Origin: baseURL ?? '' },
  })
  expect(failed.status()).toBe(401)

  await page.goto('/admin/audit')
  await new SignInPage(page).signIn(adminUser)
  await expectPath(page, '/admin/audit')
  await expect(page.getByRole('heading', { name: 'Audit log', level: 2 })).toBeVisible()
  const table = page.getByRole('table', { name: 'Audit events' })
  // The admin's own sign-in just now is there (other tests sign in meanwhile: filtered).
  await page.getByLabel('Actor').fill(adminUser.email)
  await page.getByLabel('Action').selectOption('sign-in')
  await expect(table.getByRole('row').nth(1)).toContainText(adminUser.email)

  await page.getByLabel('Actor').fill(stranger)
  await page.getByLabel('Action').selectOption('sign-in.failed')
  // The typed actor applies once typing pauses: the export's address says when.
  const exportLink = page.getByRole('link', { name: 'Export' })
  await expect(exportLink).toHaveAttribute(
    'href',
    new RegExp(`actor=${encodeURIComponent(stranger)}`),
  )
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(table.getByRole('row').nth(1)).toContainText(stranger)
  const href = new URL((await exportLink.getAttribute('href')) ?? '', baseURL)
  expect(href.searchParams.get('format')).toBe('jsonl')
  expect(href.searchParams.get('action')).toBe('sign-in.failed')
  expect(href.searchParams.get('actor')).toBe(stranger)
  const exported = await page.request.get(href.toString())
  const lines = (await exported.text()).trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
    action: 'sign-in.failed',
    actor: { email: stranger },
  })

  await page.getByLabel('Action').selectOption('budget.changed')
  await expect(page.getByText('No events match these filters.')).toBeVisible()
})
