import { expect, test } from '@playwright/test'
import { DevboxPoolTab } from './pages/devbox-pool-tab.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { collectAlerts } from './support/alerts.ts'
import { expectPath } from './support/location.ts'
import { adminUser } from './support/users.ts'

test.beforeEach(async ({ page }) => {
  // The admin panel needs no organization: sign in straight into the tab.
  await page.goto('/admin/pool')
  await new SignInPage(page).signIn(adminUser)
  await expectPath(page, '/admin/pool')
})

test('the admin sees the pool figures and cycling asks for confirmation', async ({ page }) => {
  const pool = new DevboxPoolTab(page)
  await expect(pool.heading).toBeVisible()
  await expect(pool.refreshNote).toBeVisible()
  await expect(pool.provisioning).toHaveText(/^\d+$/)
  await expect(pool.failed).toHaveText(/^\d+$/)
  await expect(page.getByRole('columnheader', { name: 'Ready/Target' })).toBeVisible()
  // The test server keeps one ready box per pack type (DEVBOX_POOL_TARGET=1).
  await expect(pool.readyOverTarget('fullstack')).toHaveText(/^[01]\/1$/)

  await pool.cycleButton('fullstack').click()
  await expect(pool.confirmDialog).toContainText(
    'All ready devboxes will be deleted and recreated.',
  )
  await pool.confirmDialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(pool.confirmDialog).toBeHidden()

  const cycled = page.waitForResponse(
    (response) => response.url().endsWith('/api/admin/pool/cycle') && response.ok(),
  )
  await pool.cycleButton('fullstack').click()
  await pool.confirmDialog.getByRole('button', { name: 'Cycle Pool' }).click()
  const response = await cycled
  expect(response.request().postDataJSON()).toEqual({ pack_type: 'fullstack' })
  await expect(pool.confirmDialog).toBeHidden()
  await expect(pool.readyOverTarget('fullstack')).toHaveText(/^[01]\/1$/)
})

test('the admin sees the limits of each devbox and what enforces them', async ({ page }) => {
  const pool = new DevboxPoolTab(page)
  await expect(pool.limits).toContainText('Processes256')
  await expect(pool.limits).toContainText('Memory1,024 MB')
  await expect(pool.limits).toContainText('CPU1 CPU')
  await expect(pool.limits).toContainText('Disk2,048 MB')
  // Every part says what enforces it on this machine, or that it is not enforced and why.
  const parts = [
    'filesystem',
    'network',
    'user',
    'pids',
    'memory',
    'cpu',
    'disk',
    'syscalls',
  ] as const
  for (const part of parts) await expect(pool.enforcement(part)).toHaveText(/\S/)
  await expect(pool.enforcement('disk')).toContainText('2048 MB')
  // Boxes run the server's own Node wherever Sprout is installed (a clone in a home folder too).
  await expect(pool.enforcement('node')).toContainText("(the server's own")
})

test("a failed cycle says 'Failed to cycle pool:' and the reason", async ({ page }) => {
  const pool = new DevboxPoolTab(page)
  await page.route('**/api/admin/pool/cycle', (route) =>
    route.fulfill({ status: 409, json: { error: 'The pool is shutting down' } }),
  )
  const alerts = collectAlerts(page)
  await pool.cycleButton('fullstack').click()
  await pool.confirmDialog.getByRole('button', { name: 'Cycle Pool' }).click()
  await expect.poll(() => alerts).toEqual(['Failed to cycle pool: The pool is shutting down'])
  await expect(pool.confirmDialog).toBeHidden()
})
