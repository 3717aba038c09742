import { mkdtemp } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { findFreePort } from '@sprout/devbox/drivers/local/processes/free-port.ts'
import { removeWithMounts } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { boxIdentityKeyFrom } from '@sprout/devbox/egress/box-identity.ts'
import { type DevboxLogger, silentLogger } from '@sprout/devbox/logger.ts'
import { createApp } from '../app.ts'
import { type Config, parseConfig } from '../config/config.ts'
import { CALLBACK_PATH } from '../devboxes/hand-off/host-hand-off.ts'
import type { KubernetesClusterOptions } from '../devboxes/runtime/create-kubernetes-runtime.ts'
import { createRuntimeOfDriver } from '../devboxes/runtime/runtime-of-driver.ts'
import { createNodeHandlers } from '../http/node-handler.ts'
import { loadVaultKeyring } from '../sealing/master-keys.ts'
import { createTestDatabase } from './database.ts'

/** Shared by every test run so the template's dependencies are installed once per machine. */
export const testDevboxCacheDir = path.join(os.tmpdir(), 'sprout-devbox-test-cache')

export type TestUser = { id: string; email: string; cookie: string; token: string }

export type TestApp = Awaited<ReturnType<typeof createTestApp>>

let userCounter = 0

/** A real app on a real, empty database, with helpers that act as a browser would. */
export async function createTestApp(
  environment: Record<string, string> = {},
  /** DEVBOX_DRIVER=kubernetes: the cluster (a test API server) and where its pods answer. */
  options: { kubernetes?: KubernetesClusterOptions } = {},
) {
  const database: DatabaseHandle = await createTestDatabase()
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-test-'))
  const port = await findFreePort()
  const config: Config = parseConfig({
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT: '1000/60',
    AUTH_ACCOUNT_RATE_LIMIT: '1000/60',
    AUTH_MAIL_RATE_LIMIT: '1000/60',
    DEVBOX_POOL_TARGET: '0',
    DEVBOX_CACHE_DIR: testDevboxCacheDir,
    PUBLIC_URL: `http://localhost:${port}`,
    // The check after runs costs seconds per run, its acceptance tests a browser: the tests of
    // checks turn them on.
    CHECKS: 'off',
    ACCEPTANCE_TESTS: 'off',
    ...environment,
  })
  const logger: DevboxLogger = {
    ...silentLogger,
    error: (message, details) => console.error(`[devbox] ${message}`, details ?? ''),
  }
  const authSecret = 'test-secret-test-secret-test-secret-0123'
  const created = createApp({
    config,
    database,
    authSecret,
    devboxes: (appProcesses) =>
      createRuntimeOfDriver(config, database.db, {
        appProcesses,
        logger,
        identityKey: boxIdentityKeyFrom(authSecret),
        ...options.kubernetes,
      }),
    vaultKeyring: await loadVaultKeyring(config, database.db),
  })
  const { devboxes } = created
  const { app, auth, origins, authCache } = created
  await authCache.start()
  await created.userStreams.start()
  await created.singleSignOn.start()
  await created.vault.start()
  await created.leadership.start()
  await created.conversations.start()
  created.mailer.start()
  await devboxes.start()
  let server: http.Server | undefined

  /** Serves the app over real HTTP on the port PUBLIC_URL names (previews, deploys, upgrades). */
  const listen = async () => {
    if (server) return
    const handlers = createNodeHandlers(created)
    server = http.createServer(handlers.request)
    server.on('upgrade', handlers.upgrade)
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', () => resolve()))
  }
  const origin = config.publicUrl

  const request = (
    path: string,
    init: RequestInit & { user?: TestUser; as?: 'cookie' | 'bearer' } = {},
  ) => {
    const headers = new Headers(init.headers)
    if (init.user) {
      if (init.as === 'cookie') headers.set('cookie', init.user.cookie)
      else headers.set('authorization', `Bearer ${init.user.token}`)
    }
    if (init.body !== undefined && !headers.has('content-type')) {
      headers.set('content-type', 'application/json')
    }
    if (!headers.has('origin')) headers.set('origin', origin)
    return app.request(path, { ...init, headers })
  }

  /** Signs up as the sign-up form does, with the request's extra headers (e.g. the setup code). */
  const signUpWith = async (input: {
    email: string
    password?: string
    headers?: Record<string, string>
  }): Promise<TestUser> => {
    const { email, password = 'correct-horse-battery' } = input
    const response = await request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: input.headers,
      body: JSON.stringify({ email, password, name: email.split('@')[0] }),
    })
    if (response.status !== 200) throw new Error(`sign-up failed: ${await response.text()}`)
    const body = (await response.json()) as { user: { id: string } }
    return {
      id: body.user.id,
      email,
      cookie: cookieHeader(response),
      token: response.headers.get('set-auth-token') ?? '',
    }
  }

  const signUp = (email = `user${++userCounter}-${Date.now()}@example.com`) => signUpWith({ email })

  /**
   * Signs up the installation's admin the way a self-hoster does: through the setup link a
   * start prints (docs/product/auth.md "The first admin").
   */
  const signUpAdmin = async (email?: string): Promise<TestUser> => {
    const user = await signUp(email)
    const setupUrl = await created.setupLink.prepare(origin)
    if (!setupUrl) throw new Error('this installation already has an admin')
    const code = new URL(setupUrl).searchParams.get('code') ?? ''
    const response = await request('/api/setup', {
      method: 'POST',
      user,
      body: JSON.stringify({ code }),
    })
    if (response.status !== 200) throw new Error(`setup failed: ${await response.text()}`)
    return user
  }

  /** Creates an organization owned by `owner` and returns its id. */
  const createOrganization = async (owner: TestUser, name = `Org ${Date.now()}`) => {
    const response = await request('/api/auth/organization/create', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({ name, slug: `org-${Math.random().toString(36).slice(2, 10)}` }),
    })
    if (response.status !== 200) throw new Error(`create org failed: ${await response.text()}`)
    return ((await response.json()) as { id: string }).id
  }

  /** Invites `member` into the organization and accepts as them. */
  const addMember = async (
    organizationId: string,
    owner: TestUser,
    member: TestUser,
    role = 'member',
  ) => {
    const invite = await request('/api/auth/organization/invite-member', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({ email: member.email, role, organizationId }),
    })
    if (invite.status !== 200) throw new Error(`invite failed: ${await invite.text()}`)
    const invitation = (await invite.json()) as { id: string }
    const accept = await request('/api/auth/organization/accept-invitation', {
      method: 'POST',
      user: member,
      body: JSON.stringify({ invitationId: invitation.id }),
    })
    if (accept.status !== 200) throw new Error(`accept failed: ${await accept.text()}`)
  }

  return {
    app,
    auth,
    origins,
    config,
    database,
    request,
    origin,
    signUp,
    signUpWith,
    signUpAdmin,
    createOrganization,
    addMember,
    authCache,
    devboxes,
    port,
    listen,
    created,
    close: async () => {
      if (server) {
        const closing = server
        await new Promise<void>((resolve) => {
          closing.close(() => resolve())
          closing.closeAllConnections()
        })
      }
      await created.evaluations.stop()
      await created.mailer.stop()
      await created.conversations.stop()
      await created.leadership.stop()
      await devboxes.stop()
      await authCache.stop()
      await created.userStreams.stop()
      await created.vault.stop()
      await created.errorIngest.stop()
      await database.close()
      await removeWithMounts(dataDir)
    },
  }
}

export function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

/** Polls editor-ready the way the create dialog does, up to 60 s. */
export async function waitForEditorReady(
  harness: TestApp,
  user: TestUser,
  organizationId: string,
  applicationId: string,
) {
  for (let attempt = 0; attempt < 120; attempt++) {
    const response = await harness.request(`/api/applications/${applicationId}/editor-ready`, {
      user,
      headers: { 'organization-id': organizationId },
    })
    const body = (await response.json()) as { ready: boolean; error?: string }
    if (body.error) throw new Error(body.error)
    if (body.ready) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error('editor never became ready')
}

/**
 * The preview's hand-off path for a devbox token (docs/decisions/006-preview-hand-off.md): what the
 * builder's iframe opens first, answered with the preview cookie and a redirect to `returnPath`.
 */
export function handOffPath(token: string, returnPath = '/'): string {
  return `${CALLBACK_PATH}?token=${encodeURIComponent(token)}&return=${encodeURIComponent(returnPath)}`
}
