// Two instances on one PostgreSQL and one SHARED_DIR, without AUTH_SECRET: what they sign and seal
// opens on both (docs/decisions/035-shared-app-tokens-and-auth-secret.md). PostgreSQL only.
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/config.ts'
import { startServer } from '../start-server.ts'
import { clusterEnvironments } from '../testing/cluster-environments.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { requestServer } from '../testing/server-process.ts'

type Server = Awaited<ReturnType<typeof startServer>>

const cleanups: (() => Promise<void>)[] = []

describe.skipIf(testDatabaseKind !== 'postgres')(
  'app tokens and sessions across instances',
  { timeout: 120_000 },
  () => {
    let a: Server
    let b: Server
    let cookie = ''
    let organizationId = ''
    const base = (server: Server) => `http://127.0.0.1:${server.port}`
    const withCookie = (server: Server, pathname: string, sessionCookie = cookie) =>
      requestServer(base(server), pathname, { headers: { cookie: sessionCookie } })
    /** `GET /internal/integrations/…/token` as a box without a network of its own calls it. */
    const integrationToken = (server: Server, appToken: string) =>
      fetch(`${base(server)}/internal/integrations/linear/token`, {
        headers: { authorization: `Bearer ${appToken}` },
      })
    const newApplication = async () => {
      const id = randomUUID()
      await a.database.execute(
        `insert into applications (id, organization_id, name, slug, initial_prompt, model)
         values ($1, $2, 'App', $3, 'An app', 'demo')`,
        [id, organizationId, `app-${id.slice(0, 8)}`],
      )
      return id
    }

    beforeAll(async () => {
      const {
        environments: [environmentA = {}, environmentB = {}],
      } = await clusterEnvironments(cleanups, {
        name: 'tokens',
        publicPort: 29300,
        instances: 2,
      })
      a = await startServer(parseConfig(environmentA), { serveWeb: false })
      b = await startServer(parseConfig(environmentB), { serveWeb: false })
      const signedUp = await requestServer(base(a), '/api/auth/sign-up/email', {
        method: 'POST',
        body: JSON.stringify({
          email: 'tokens@example.com',
          name: 't',
          password: 'correct-horse-battery',
        }),
      })
      expect(signedUp.status).toBe(200)
      const session = signedUp.headers.getSetCookie().find((set) => set.includes('session_token'))
      cookie = session?.split(';')[0] ?? ''
      const { rows } = await a.database.execute('select id from organization')
      organizationId = String(rows[0]?.id)
    }, 120_000)

    afterAll(async () => {
      await b?.stop()
      await a?.stop()
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    })

    it('accepts on B the session cookie A signed, and refuses it with its signature altered', async () => {
      expect(cookie).toMatch(/session_token=.+\..+/)
      expect((await withCookie(b, '/api/applications')).status).toBe(200)
      const separator = cookie.lastIndexOf('.')
      const signature = cookie.slice(separator + 1)
      const altered = `${cookie.slice(0, separator + 1)}${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`
      expect((await withCookie(b, '/api/applications', altered)).status).toBe(401)
    })

    it("issues the chat stream's JWT on B with the key A made and sealed", async () => {
      const first = await withCookie(a, '/api/auth/token')
      expect(first.status).toBe(200)
      const second = await withCookie(b, '/api/auth/token')
      expect(second.status).toBe(200)
      expect(((await second.json()) as { token: string }).token).toMatch(/^ey/)
    })

    it('hands the same app token out on A and on B, and each opens sprout.internal on both', async () => {
      const applicationId = await newApplication()
      const fromA = await a.created.integrations.appTokens.tokenFor(applicationId)
      const fromB = await b.created.integrations.appTokens.tokenFor(applicationId)
      expect(fromB).toBe(fromA)
      for (const server of [a, b]) {
        // The integrations service's answer (none is defined here) rather than 401: the token opened.
        const answer = await integrationToken(server, fromA)
        expect(answer.status).toBe(404)
        expect(await answer.text()).toMatch(/No integration named/)
        expect((await integrationToken(server, randomBytes(32).toString('base64url'))).status).toBe(
          401,
        )
      }
    })

    it('never hands out an altered sealed token: B makes a new one, which A hands out next', async () => {
      const applicationId = await newApplication()
      const fromA = await a.created.integrations.appTokens.tokenFor(applicationId)
      await a.database.execute(
        `update app_runtime_tokens
         set sealed_token = regexp_replace(sealed_token, '.{4}$', 'AAAA')
         where application_id = $1`,
        [applicationId],
      )
      const fromB = await b.created.integrations.appTokens.tokenFor(applicationId)
      expect(fromB).not.toBe(fromA)
      expect(await a.created.integrations.appTokens.tokenFor(applicationId)).toBe(fromB)
      for (const server of [a, b]) {
        expect((await integrationToken(server, fromA)).status).toBe(401)
        expect((await integrationToken(server, fromB)).status).toBe(404)
      }
    })
  },
)
