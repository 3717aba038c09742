import { randomBytes, randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { appRuntimeTokens } from '@sprout/db/schema/app-runtime-tokens.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { organization } from '@sprout/db/schema/auth.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../http/app-error.ts'
import { onError } from '../http/on-error.ts'
import { createKeyring } from '../sealing/master-keys.ts'
import { createTestDatabase } from '../testing/database.ts'
import { seedApplication } from '../testing/seed-conversations.ts'
import { type AppTokens, createAppTokens } from './app-tokens.ts'
import type { AccessTokenSource } from './integration-token.ts'
import { handleInternalRequest } from './internal-requests.ts'
import { appRuntimeRoutes } from './routes.ts'

/** Connections as H's service answers them: linear is connected, hubspot needs reconnecting. */
const accessToken: AccessTokenSource = async (organizationId, service) => {
  if (service === 'linear') {
    return { accessToken: `lin-${organizationId}`, expiresAt: new Date('2030-01-01T00:00:00Z') }
  }
  if (service === 'hubspot') throw new AppError(409, 'Reconnect HubSpot in Settings')
  throw new AppError(404, `${service} is not connected`)
}

/**
 * decision 019: `GET /integrations/{service}/token` at sprout.internal, with the box's own
 * SPROUT_APP_TOKEN, is the one thing that token opens.
 */
/** These tests ask for tokens only; app mail has tests of its own (app-mail.test.ts). */
const noMail = { configured: () => false, perHour: 0, send: async () => 'queued' as const }

describe('the integration token route of sprout.internal', () => {
  let database: DatabaseHandle
  let appTokens: AppTokens
  let server: http.Server
  let port: number
  /** The application the calling "box" serves. */
  let boxApplication: string | undefined
  const organizations: string[] = []
  const apps: string[] = []

  const newApplication = (organizationId: string) => seedApplication(database.db, organizationId)
  const get = async (path: string, token?: string, method = 'GET') => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    })
    return { status: response.status, text: await response.text() }
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    for (const name of ['One', 'Two']) {
      const id = randomUUID()
      await database.db
        .insert(organization)
        .values({ id, name, slug: `org-${id.slice(0, 8)}`, createdAt: new Date() })
      organizations.push(id)
    }
    apps.push(await newApplication(organizations[0] as string))
    apps.push(await newApplication(organizations[1] as string))
    appTokens = createAppTokens(database.db, createKeyring(randomBytes(32).toString('base64'), []))
    // The egress proxy hands the box's request over with the box's application.
    server = http.createServer((request, response) => {
      void handleInternalRequest(boxApplication, request, response, undefined, {
        appTokens,
        accessToken,
        appIdentityKeys: { keys: [] },
        mail: noMail,
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    await database.close()
  })

  it("answers the box's own token with its organization's access token", async () => {
    const [first] = apps as [string]
    boxApplication = first
    const token = await appTokens.tokenFor(first)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await appTokens.tokenFor(first)).toBe(token)
    const answer = await get('/integrations/linear/token', token)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toEqual({
      access_token: `lin-${organizations[0]}`,
      expires_at: '2030-01-01T00:00:00.000Z',
    })
    // Only its hash and the token sealed with the vault key are stored (decision 035).
    const [row] = await database.db
      .select()
      .from(appRuntimeTokens)
      .where(eq(appRuntimeTokens.applicationId, first))
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(row?.sealedToken).toMatch(/^[0-9a-f]{16}\./)
    expect(JSON.stringify(row)).not.toContain(token)
  })

  it("passes on the service's reason when there is no connection", async () => {
    const [first] = apps as [string]
    boxApplication = first
    const token = await appTokens.tokenFor(first)
    expect(await get('/integrations/hubspot/token', token)).toEqual({
      status: 409,
      text: JSON.stringify({ error: 'Reconnect HubSpot in Settings' }),
    })
    expect((await get('/integrations/github/token', token)).status).toBe(404)
  })

  it('refuses a missing or wrong token, and another application’s, with 401', async () => {
    const [first, second] = apps as [string, string]
    boxApplication = first
    expect((await get('/integrations/linear/token')).status).toBe(401)
    expect((await get('/integrations/linear/token', 'not-a-token')).status).toBe(401)
    const other = await get('/integrations/linear/token', await appTokens.tokenFor(second))
    expect(other.status).toBe(401)
    expect(other.text).not.toContain('lin-')
    // A box of no application (a pool box) gets nothing either.
    boxApplication = undefined
    expect((await get('/integrations/linear/token', await appTokens.tokenFor(first))).status).toBe(
      401,
    )
  })

  it('opens nothing else of Sprout with the token: every other path or method is a 404', async () => {
    const [first] = apps as [string]
    boxApplication = first
    const token = await appTokens.tokenFor(first)
    for (const path of [
      '/integrations/linear',
      '/integrations/linear/token/extra',
      '/api/integrations/linear/token',
      '/api/applications',
      '/healthz',
    ]) {
      expect((await get(path, token)).status, path).toBe(404)
    }
    expect((await get('/integrations/linear/token', token, 'POST')).status).toBe(404)
  })

  it('stops working when the application is deleted', async () => {
    const organizationId = organizations[0] as string
    const doomed = await newApplication(organizationId)
    boxApplication = doomed
    const token = await appTokens.tokenFor(doomed)
    expect((await get('/integrations/linear/token', token)).status).toBe(200)
    await database.db.delete(applications).where(eq(applications.id, doomed))
    expect((await get('/integrations/linear/token', token)).status).toBe(401)
    expect(
      await database.db
        .select()
        .from(appRuntimeTokens)
        .where(eq(appRuntimeTokens.applicationId, doomed)),
    ).toEqual([])
  })

  it('at PUBLIC_URL (boxes without a network of their own) the token alone says which app asks', async () => {
    const routes = appRuntimeRoutes({
      appTokens,
      accessToken,
      appIdentityKeys: { keys: [] },
      mail: noMail,
    })
    routes.onError(onError)
    const [, second] = apps as [string, string]
    const token = await appTokens.tokenFor(second)
    const ok = await routes.request('/internal/integrations/linear/token', {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ access_token: `lin-${organizations[1]}` })
    expect(ok.headers.get('cache-control')).toBe('no-store')
    const wrong = await routes.request('/internal/integrations/linear/token', {
      headers: { authorization: 'Bearer nope' },
    })
    expect(wrong.status).toBe(401)
    const other = await routes.request('/internal/integrations/linear', {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(other.status).toBe(404)
  })
})
