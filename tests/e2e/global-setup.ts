import { existsSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { FullConfig } from '@playwright/test'
import { unmountUnder } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { adminUser } from './support/users.ts'

/**
 * Runs after the web server has started (Playwright starts it first). Removes the data folders of
 * earlier runs (their disk images unmounted first), then signs up the installation's admin (listed in
 * ADMIN_EMAILS), so every test finds it.
 */
export default async function globalSetup(config: FullConfig) {
  const current = path.resolve(process.env.SPROUT_E2E_DATA_DIR ?? '')
  const parent = path.resolve('.tmp')
  for (const entry of existsSync(parent) ? readdirSync(parent) : []) {
    const folder = path.join(parent, entry)
    const ours = entry.startsWith('e2e-data-') || entry.startsWith('e2e-own-')
    if (ours && folder !== current && !runnerAlive(entry)) {
      // Run as root, its boxes' disk images are still mounted in it (reused by a restart).
      await unmountUnder(folder)
      rmSync(folder, { recursive: true, force: true })
    }
  }

  const baseURL = config.projects[0]?.use.baseURL ?? 'http://localhost:3100'
  const response = await fetch(`${baseURL}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseURL },
    body: JSON.stringify(adminUser),
  })
  if (!response.ok) {
    throw new Error(`Could not sign up the admin user: ${response.status} ${await response.text()}`)
  }
}

/**
 * A folder is `e2e-data-{time}-{runner pid}`; another run in the same checkout (e.g. a single spec
 * run beside a longer one) still uses its folder while its runner lives.
 */
function runnerAlive(entry: string): boolean {
  const pid = Number(entry.split('-').at(-1))
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
