import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { appRuntimeTokens } from '@sprout/db/schema/app-runtime-tokens.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { integrationConnections, integrationDefinitions } from '@sprout/db/schema/integrations.ts'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectionOwner, definitionOwner, seal } from '../integrations/sealing.ts'
import { loadVaultKeyring } from '../sealing/master-keys.ts'
import {
  createTestApp,
  type TestApp,
  type TestUser,
  waitForEditorReady,
} from '../testing/app-harness.ts'
import { rawRequest } from '../testing/raw-request.ts'

/** Routes of an app that use the starter's helper (server/integrations.ts) as the agent would. */
const tokenRoutes = `import { Hono } from 'hono'
import { getAccessToken } from './integrations.ts'

export const app = new Hono().basePath('/api')
app.get('/health', (c) => c.json({ ok: true }))
app.get('/token/:service', async (c) => {
  try {
    return c.json({ token: await getAccessToken(c.req.param('service')) })
  } catch (error) {
    return c.json({ error: (error as Error).message }, 502)
  }
})
// Only for this test: the token the box's own requests use below.
app.get('/runtime', (c) =>
  c.json({ token: process.env.SPROUT_APP_TOKEN ?? null, url: process.env.SPROUT_INTERNAL_URL ?? null }),
)
export default app
`

type Harness = {
  harness: TestApp
  owner: TestUser
  organizationId: string
  applicationId: string
  accessToken: string
}

/** An application with a ready box, and its organization connected to Linear (rows seeded). */
async function setUp(environment: Record<string, string> = {}): Promise<Harness> {
  const harness = await createTestApp(environment)
  await harness.listen()
  // The application then gets the pool's ready box, whose dev server started without it.
  const started = Date.now()
  while (
    environment.DEVBOX_POOL_TARGET &&
    harness.devboxes.pool.stats().packs.fullstack?.ready !== 1
  ) {
    if (Date.now() - started > 120_000) throw new Error('the pool has no ready box')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const owner = await harness.signUpAdmin() // may deploy
  const organizationId = await harness.createOrganization(owner, 'Connected')
  const created = await harness.request('/api/applications', {
    method: 'POST',
    user: owner,
    headers: { 'organization-id': organizationId },
    body: JSON.stringify({ initial_prompt: 'My Linear issues', model: 'demo' }),
  })
  const applicationId = ((await created.json()) as { id: string }).id
  // As the OAuth callback leaves it (decision 018): tokens sealed with the vault's keys.
  const keyring = await loadVaultKeyring(harness.config, harness.database.db)
  const accessToken = `lin_oauth_${randomBytes(12).toString('hex')}`
  await harness.database.db.insert(integrationDefinitions).values({
    serviceName: 'linear',
    displayName: 'Linear',
    clientId: 'client',
    clientSecret: seal(keyring, definitionOwner('linear'), 'client_secret', 'secret'),
    authUrl: 'https://linear.app/oauth/authorize',
    tokenUrl: 'https://api.linear.app/oauth/token',
    scopes: ['read'],
    additionalParams: {},
    preset: 'linear',
  })
  await harness.database.db.insert(integrationConnections).values({
    organizationId,
    serviceName: 'linear',
    accessToken: seal(
      keyring,
      connectionOwner(organizationId, 'linear'),
      'access_token',
      accessToken,
    ),
    expiresAt: new Date(Date.now() + 3_600_000),
    scopes: ['read'],
    connectedBy: owner.id,
  })
  await waitForEditorReady(harness, owner, organizationId, applicationId)
  await harness.devboxes.box(applicationId)?.files.write('server/app.ts', tokenRoutes)
  return { harness, owner, organizationId, applicationId, accessToken }
}

const devServer = async ({ harness, applicationId }: Harness, path: string) => {
  const target = harness.devboxes.devServerTarget(applicationId)
  const response = target ? await requestDevServer(target, path).catch(() => undefined) : undefined
  return response && { status: response.status, body: JSON.parse(response.body || '{}') }
}

/**
 * decision 019, docs/architecture/devbox.md "App back ends": an app's server gets the
 * organization's connection through http://sprout.internal with its SPROUT_APP_TOKEN.
 */
describe("an app's server gets its organization's tokens in a real box", {
  timeout: 300_000,
}, () => {
  let setup: Harness
  beforeAll(async () => {
    setup = await setUp()
  })
  afterAll(() => setup.harness.close())

  it("getAccessToken('linear') returns the connection's token through sprout.internal", async () => {
    await expect
      .poll(async () => (await devServer(setup, '/api/token/linear'))?.body, { timeout: 60_000 })
      .toEqual({ token: setup.accessToken })
    const runtime = (await devServer(setup, '/api/runtime'))?.body
    expect(runtime).toMatchObject({ url: 'http://sprout.internal' })
    expect(runtime.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Not connected: the helper throws the service's reason.
    const hubspot = await devServer(setup, '/api/token/hubspot')
    expect(hubspot?.status).toBe(502)
    expect(hubspot?.body.error).toMatch(/^No access token for hubspot: /)
  })

  it("opens nothing else, and another app's token opens nothing here", async () => {
    const token = (await devServer(setup, '/api/runtime'))?.body.token as string
    // Another application's token (of the same organization), known to this test only.
    const otherApplication = randomUUID()
    const otherToken = randomBytes(32).toString('base64url')
    await setup.harness.database.db.insert(applications).values({
      id: otherApplication,
      organizationId: setup.organizationId,
      name: 'Other',
      slug: `other-${otherApplication.slice(0, 8)}`,
      initialPrompt: 'Other',
      model: 'demo',
    })
    await setup.harness.database.db.insert(appRuntimeTokens).values({
      applicationId: otherApplication,
      tokenHash: createHash('sha256').update(otherToken).digest('hex'),
    })
    const status = (path: string, bearer?: string) =>
      `curl -s -o /dev/null -w '%{http_code} ' ${bearer ? `-H 'authorization: Bearer ${bearer}' ` : ''}http://sprout.internal${path}`
    const script = [
      status('/integrations/linear/token', token),
      status('/integrations/linear/token'),
      status('/integrations/linear/token', 'wrong'),
      status('/integrations/linear/token', otherToken),
      status('/api/applications', token),
      status('/integrations/linear', token),
    ].join('; ')
    const result = await setup.harness.devboxes.box(setup.applicationId)?.exec(script, {
      timeoutSeconds: 60,
    })
    expect(result?.output.trim().split(/\s+/)).toEqual(['200', '401', '401', '401', '404', '404'])
  })

  it('a deployed server gets the token the same way', async () => {
    await setup.harness.request(`/api/applications/${setup.applicationId}`, {
      method: 'PATCH',
      user: setup.owner,
      headers: { 'organization-id': setup.organizationId },
      body: JSON.stringify({ visibility: 'public' }),
    })
    const deploy = await setup.harness.request(`/api/applications/${setup.applicationId}/deploy`, {
      method: 'POST',
      user: setup.owner,
      headers: { 'organization-id': setup.organizationId },
    })
    expect(deploy.status, await deploy.clone().text()).toBe(200)
    const appsHost = new URL(((await deploy.json()) as { prod_url: string }).prod_url).host
    const answer = await rawRequest(setup.harness.port, appsHost, '/api/token/linear')
    expect(answer.status, answer.body).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ token: setup.accessToken })
  })

  it('the token is gone with the application', async () => {
    const deleted = await setup.harness.request(`/api/applications/${setup.applicationId}`, {
      method: 'DELETE',
      user: setup.owner,
      headers: { 'organization-id': setup.organizationId },
    })
    expect(deleted.status).toBeLessThan(300)
    const rows = await setup.harness.database.db
      .select()
      .from(appRuntimeTokens)
      .where(eq(appRuntimeTokens.applicationId, setup.applicationId))
    expect(rows).toEqual([])
  })
})

describe('without a network of their own (DEVBOX_SANDBOX=off)', { timeout: 300_000 }, () => {
  let setup: Harness
  beforeAll(async () => {
    setup = await setUp({ DEVBOX_SANDBOX: 'off' })
  })
  afterAll(() => setup.harness.close())

  it('the helper reaches PUBLIC_URL/internal, which the token alone opens', async () => {
    await expect
      .poll(async () => (await devServer(setup, '/api/token/linear'))?.body, { timeout: 60_000 })
      .toEqual({ token: setup.accessToken })
    const runtime = (await devServer(setup, '/api/runtime'))?.body
    expect(runtime.url).toBe(`http://localhost:${setup.harness.port}/internal`)
    const refused = await setup.harness.request('/internal/integrations/linear/token', {
      headers: { authorization: 'Bearer wrong' },
    })
    expect(refused.status).toBe(401)
  })
})

describe('a box claimed from the pool', { timeout: 300_000 }, () => {
  let setup: Harness
  beforeAll(async () => {
    setup = await setUp({ DEVBOX_POOL_TARGET: '1' })
  })
  afterAll(() => setup.harness.close())

  it('gives its running dev server the app token once claimed, without a restart', async () => {
    const box = setup.harness.devboxes.box(setup.applicationId)
    const pid = (
      box?.devServer as { processGroupId?: () => number | undefined }
    )?.processGroupId?.()
    await expect
      .poll(async () => (await devServer(setup, '/api/token/linear'))?.body, { timeout: 60_000 })
      .toEqual({ token: setup.accessToken })
    expect(
      (box?.devServer as { processGroupId?: () => number | undefined })?.processGroupId?.(),
    ).toBe(pid)
  })
})
