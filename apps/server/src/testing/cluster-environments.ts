import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { removeWithMounts } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { PREVIEW_COOKIE } from '../devboxes/hand-off/preview-session.ts'
import { handOffPath } from './app-harness.ts'
import { cookieFrom, rawRequest } from './raw-request.ts'
import { type Cleanups, requestServer, serverEnvironment } from './server-process.ts'

/** Waits for `check` to hold, polling every 250 ms; fails naming `what` after `timeoutMs`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * The environments of the instances of one installation (docs/decisions/033-box-leases-and-relay.md):
 * one SHARED_DIR, VAULT_KEY, PUBLIC_URL and database (the first instance's), a DATA_DIR and a PORT
 * each. Boxes are plain folders: the sandbox's state is per machine. Ports are fixed, below Linux's
 * ephemeral range (32768–60999) that port-0 listeners draw from: `publicPort`, then one per
 * instance after it.
 */
export async function clusterEnvironments(
  cleanups: Cleanups,
  input: { name: string; publicPort: number; instances: number; shared?: Record<string, string> },
) {
  const sharedDir = await mkdtemp(path.join(os.tmpdir(), `sprout-shared-${input.name}-`))
  cleanups.push(() => removeWithMounts(sharedDir))
  const vaultKey = randomBytes(32).toString('base64')
  const shared = {
    SHARED_DIR: sharedDir,
    VAULT_KEY: vaultKey,
    PUBLIC_URL: `http://localhost:${input.publicPort}`,
    DEVBOX_SANDBOX: 'off',
    DEVBOX_DISK: 'measured',
    ...input.shared,
  }
  const environments: Record<string, string>[] = []
  for (let index = 0; index < input.instances; index++) {
    const environment = await serverEnvironment(cleanups, `sprout-${input.name}-${index}-`, {
      ...shared,
      PORT: String(input.publicPort + 1 + index),
    })
    const first = environments[0]
    if (first?.DATABASE_URL) environment.DATABASE_URL = first.DATABASE_URL
    environments.push(environment)
  }
  return { environments, sharedDir, vaultKey }
}

/**
 * A preview cookie for an application, asked for through the instance at `base` (listening on
 * `port`): its preview's host and the cookie its hand-off sets (docs/decisions/006-preview-hand-off.md).
 */
export async function previewCookieThrough(
  base: string,
  port: number,
  applicationId: string,
  headers: Record<string, string>,
) {
  const details = await requestServer(base, `/api/applications/${applicationId}`, { headers })
  const { preview_url: previewUrl } = (await details.json()) as { preview_url: string }
  const issued = await requestServer(base, '/api/org/devbox-token', {
    method: 'POST',
    headers,
    body: JSON.stringify({ devbox_url: previewUrl }),
  })
  const { token } = (await issued.json()) as { token: string }
  const host = new URL(previewUrl).host
  const exchanged = await rawRequest(port, host, handOffPath(token))
  return { host, exchanged, cookie: cookieFrom(exchanged, PREVIEW_COOKIE) ?? '' }
}
