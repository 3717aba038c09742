import { integrationConnections } from '@sprout/db/schema/integrations.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../app.ts'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'
import { testDatabaseKind } from '../testing/database.ts'
import {
  followToRedirect,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from '../testing/oauth-server.ts'
import { openOtherInstanceDatabase } from '../testing/other-instance-database.ts'

const service = 'tracker'

/**
 * Two instances, each with its own connections to one PostgreSQL database, asked for an expired
 * token at once: one refresh reaches the authorization server (a rotated refresh token is used
 * once), and both answer with its access token (decision 031).
 */
describe.skipIf(testDatabaseKind !== 'postgres')(
  'token refresh across instances',
  {
    timeout: 120_000,
  },
  () => {
    let first: TestApp
    let other: Awaited<ReturnType<typeof openOtherInstanceDatabase>>
    let second: ReturnType<typeof createApp>
    let authorizationServer: TestAuthorizationServer
    let member: TestUser
    let organizationId: string

    /** While armed, only refreshes reach the token endpoint: `arrived` counts the exchanges. */
    const gate = { armed: false, arrived: 0 }
    /** Whether a connection of this database waits for an advisory lock (the refresh lock's class). */
    const someoneWaitsOnTheLock = async () => {
      const { rows } = await first.database.execute(
        `select count(*)::int as waiting from pg_locks
       where locktype = 'advisory' and not granted and classid = 727275
         and database = (select oid from pg_database where datname = current_database())`,
      )
      return Number(rows[0]?.waiting) > 0
    }

    const tokenThrough = async (app: ReturnType<typeof createApp>['app']) => {
      const response = await app.request(`/api/integrations/${service}/token`, {
        headers: { authorization: `Bearer ${member.token}`, 'organization-id': organizationId },
      })
      return { status: response.status, body: (await response.json()) as { access_token: string } }
    }

    beforeAll(async () => {
      first = await createTestApp()
      other = await openOtherInstanceDatabase(first.database)
      second = createApp({
        config: first.config,
        database: other.database,
        authSecret: 'test-secret-test-secret-test-secret-0123',
        devboxes: first.devboxes,
        vaultKeyring: first.created.vault.keyring,
      })
      await second.authCache.start()
      const admin = await first.signUpAdmin()
      member = await first.signUp()
      organizationId = await first.createOrganization(admin, 'Integrators')
      await first.addMember(organizationId, admin, member)
      const callbackPrefix = `${first.config.publicUrl}/api/oauth/callback/`
      authorizationServer = await startAuthorizationServer({
        redirectUris: [`${callbackPrefix}${service}`],
      })
      // While armed, a token request is held until a second one arrives (no lock: both instances
      // exchange) or another instance waits on the refresh lock, so the two always overlap.
      authorizationServer.setBeforeToken(async () => {
        if (!gate.armed) return
        gate.arrived++
        const deadline = Date.now() + 10_000
        while (gate.arrived < 2 && !(await someoneWaitsOnTheLock()) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
      })
      const created = await first.request('/api/admin/integrations', {
        method: 'POST',
        user: admin,
        body: JSON.stringify({
          service_name: service,
          display_name: 'Tracker',
          client_id: authorizationServer.clientId,
          client_secret: authorizationServer.clientSecret,
          auth_url: authorizationServer.authUrl,
          token_url: authorizationServer.tokenUrl,
          scopes: 'read',
          additional_params: '{"prompt": "consent"}',
        }),
      })
      expect(created.status, await created.clone().text()).toBe(201)
      const state = await first.request('/api/oauth/state', {
        method: 'POST',
        user: member,
        headers: { 'organization-id': organizationId },
        body: JSON.stringify({ integration_name: service }),
      })
      const { authorization_url } = (await state.json()) as { authorization_url: string }
      const callback = await followToRedirect(authorization_url, callbackPrefix)
      const landed = await first.request(`${callback.pathname}${callback.search}`, { user: member })
      expect(
        new URL(landed.headers.get('location') ?? '', 'http://x').searchParams.get('connected'),
      ).toBeTruthy()
    })
    afterAll(async () => {
      await second?.authCache.stop()
      await other?.database.close()
      await authorizationServer?.close()
      await first?.close()
    })

    it('exchanges the refresh token once when A and B refresh at once', async () => {
      for (let round = 0; round < 3; round++) {
        await first.database.db
          .update(integrationConnections)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(integrationConnections.organizationId, organizationId))
        Object.assign(gate, { armed: true, arrived: 0 })
        const answers = await Promise.all([
          tokenThrough(first.app),
          tokenThrough(second.app),
          tokenThrough(second.app),
          tokenThrough(first.app),
        ])
        gate.armed = false
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
        expect(new Set(answers.map((answer) => answer.body.access_token)).size).toBe(1)
        expect(gate.arrived).toBe(1)
        const [row] = await first.database.db
          .select()
          .from(integrationConnections)
          .where(eq(integrationConnections.organizationId, organizationId))
        expect(row?.needsReconnect).toBe(false)
      }
    })
  },
)
