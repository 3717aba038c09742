// Two instances on one PostgreSQL and one SHARED_DIR: a box has one owner, the other relays to it
// (docs/decisions/033-box-leases-and-relay.md). PostgreSQL only: SHARED_DIR needs DATABASE_URL.
import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/config.ts'
import { PREVIEW_COOKIE } from '../devboxes/hand-off/preview-session.ts'
import { startServer } from '../start-server.ts'
import { handOffPath } from '../testing/app-harness.ts'
import { isRunEnd, readStream } from '../testing/chat-client.ts'
import { clusterEnvironments, until } from '../testing/cluster-environments.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { cookieFrom, rawRequest } from '../testing/raw-request.ts'
import { openWebSocket } from '../testing/raw-websocket.ts'
import { requestServer, signUpOverHttp } from '../testing/server-process.ts'
import { createBoxLeases } from './box-leases.ts'
import { RELAY_CLIENT_HEADER, RELAY_HEADER, relayKeyFrom, signRelay } from './relay-signature.ts'

type Server = Awaited<ReturnType<typeof startServer>>

const cleanups: (() => Promise<void>)[] = []

describe.skipIf(testDatabaseKind !== 'postgres')(
  'boxes across instances',
  {
    timeout: 180_000,
  },
  () => {
    let vaultKey = ''
    let environmentA: Record<string, string> = {}
    let a: Server
    let b: Server
    let aStopped = false
    let sharedDir = ''
    let token = ''
    let applicationId = ''
    // An application without a box, for the leases alone.
    const raceId = randomUUID()
    const base = (server: Server) => `http://127.0.0.1:${server.port}`
    const auth = () => ({ authorization: `Bearer ${token}` })
    const call = (server: Server, pathname: string, init: RequestInit = {}) =>
      requestServer(base(server), pathname, { ...init, headers: { ...auth(), ...init.headers } })

    /** A preview cookie through `server`, and the preview's host. */
    const previewCookie = async (server: Server) => {
      const details = await call(server, `/api/applications/${applicationId}`)
      const { preview_url: previewUrl } = (await details.json()) as { preview_url: string }
      const issued = await call(server, '/api/org/devbox-token', {
        method: 'POST',
        body: JSON.stringify({ devbox_url: previewUrl }),
      })
      const { token: previewToken } = (await issued.json()) as { token: string }
      const host = new URL(previewUrl).host
      const exchanged = await rawRequest(server.port, host, handOffPath(previewToken))
      expect(exchanged.status).toBe(302)
      return { host, cookie: cookieFrom(exchanged, PREVIEW_COOKIE) ?? '' }
    }

    const leaseOwner = async () => {
      const { rows } = await a.database.execute(
        'select instance_id from box_leases where application_id = $1 and expires_at > now()',
        [applicationId],
      )
      return rows[0]?.instance_id
    }

    beforeAll(async () => {
      const cluster = await clusterEnvironments(cleanups, {
        name: 'relay',
        publicPort: 29100,
        instances: 2,
        // Deploys are the platform admins' (docs/product/deploys.md).
        shared: { ADMIN_EMAILS: 'cluster@example.com' },
      })
      ;({ sharedDir, vaultKey } = cluster)
      const [first = {}, environmentB = {}] = cluster.environments
      environmentA = first
      a = await startServer(parseConfig(environmentA), { serveWeb: false })
      b = await startServer(parseConfig(environmentB), { serveWeb: false })
      token = await signUpOverHttp(base(a), { email: 'cluster@example.com', name: 'c' })
      const created = await call(a, '/api/applications', {
        method: 'POST',
        body: JSON.stringify({ initial_prompt: 'a box on A', model: 'demo' }),
      })
      expect(created.status).toBe(201)
      applicationId = ((await created.json()) as { id: string }).id
      await until(
        async () => {
          const response = await call(b, `/api/applications/${applicationId}/editor-ready`)
          return ((await response.json()) as { ready: boolean }).ready
        },
        120_000,
        'the box, asked through B',
      )
    }, 180_000)

    afterAll(async () => {
      await b?.stop()
      if (!aStopped) await a?.stop()
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    })

    it('runs a Demo message sent through B on A, with the whole stream through B', async () => {
      expect(await leaseOwner()).toBe(a.cluster?.instanceId)
      expect(b.devboxes.isOpen(applicationId)).toBe(false)
      const sent = await call(b, `/api/demo/applications/${applicationId}/message`, {
        method: 'POST',
        body: JSON.stringify({ message: 'hello from B', model: 'demo' }),
      })
      expect(sent.status).toBe(200)
      const { conversation_id: conversationId } = (await sent.json()) as { conversation_id: string }
      const { envelopes, status } = await readStream(
        `${base(b)}/api/demo/applications/${applicationId}/listen?conversation_id=${conversationId}&last_event_id=0`,
        { until: isRunEnd, init: { headers: auth() }, timeoutMs: 90_000 },
      )
      expect(status).toBe(200)
      expect(envelopes.some(isRunEnd)).toBe(true)
      const seqs = envelopes.map((envelope) => envelope.seq)
      expect(seqs).toEqual(seqs.map((_, index) => index + 1))
      // The run happened where the box is.
      const { rows } = await a.database.execute(
        'select count(*)::int as count from runs where conversation_id = $1',
        [conversationId],
      )
      expect(rows[0]?.count).toBe(1)
      expect(b.devboxes.isOpen(applicationId)).toBe(false)
      expect(a.devboxes.isOpen(applicationId)).toBe(true)
    })

    it("reads the Code tab's files and the preview through B", async () => {
      const files = await call(b, `/api/applications/${applicationId}/files`)
      expect(files.status).toBe(200)
      expect(JSON.stringify(await files.json())).toContain('package.json')
      const { host, cookie } = await previewCookie(b)
      const page = await rawRequest(b.port, host, '/', { cookie, accept: 'text/html' })
      expect(page.status).toBe(200)
      expect(page.body).toContain('<div id="root">')
      // Its modules go from B to the dev server through a tunnel, not relayed (decision 042).
      const relayedBefore = b.cluster?.relay.counts().relayed
      const tunnelsBefore = a.cluster?.relay.counts().tunnelsServed ?? 0
      for (const module of ['/src/main.tsx', '/src/App.tsx']) {
        expect((await rawRequest(b.port, host, module, { cookie })).status).toBe(200)
      }
      expect(b.cluster?.relay.counts().relayed).toBe(relayedBefore)
      expect(a.cluster?.relay.counts().tunnelsServed).toBeGreaterThan(tunnelsBefore)
      // Without the preview's cookie, B refuses a module itself.
      const signedOut = await rawRequest(b.port, host, '/src/App.tsx')
      expect(signedOut.status).toBe(401)
      expect(signedOut.body).not.toContain('export')
      // The preview's HMR socket through B: the owner's dev server tells of a change.
      const messages: string[] = []
      const socket = await openWebSocket(b.port, host, cookie, (text) => messages.push(text))
      const changed = `export function App() {\n  return <h1>Relayed ${Date.now()}</h1>\n}\n`
      await a.devboxes.box(applicationId)?.files.write('src/App.tsx', changed)
      await until(async () => messages.some((text) => text.includes('"update"')), 15_000, 'HMR')
      socket.destroy()
      expect(b.devboxes.isOpen(applicationId)).toBe(false)
    })

    it('deploys through B on A, and serves the deployed app through B from SHARED_DIR', async () => {
      const deployed = await call(b, `/api/applications/${applicationId}/deploy`, {
        method: 'POST',
      })
      expect(`${deployed.status} ${await deployed.text()}`).toMatch(/^200 /)
      const details = await call(b, `/api/applications/${applicationId}`)
      const { preview_url: previewUrl } = (await details.json()) as { preview_url: string }
      const appsHost = new URL(previewUrl).host.replace('.preview.', '.apps.')
      const health = await rawRequest(b.port, appsHost, '/api/health')
      expect(health.status).toBe(200)
      expect(JSON.parse(health.body)).toEqual({ ok: true })
      expect((await rawRequest(b.port, appsHost, '/')).body).toContain('<div id="root">')
      expect(existsSync(path.join(sharedDir, 'deploys', applicationId))).toBe(true)
      expect(b.devboxes.appServers?.status(applicationId)).not.toBe('running')
    })

    it('refuses a forged, replayed or stale relay header, serving nothing', async () => {
      const pathname = `/api/applications/${applicationId}/files`
      const signed = (key: Buffer, now = Date.now()) =>
        signRelay(key, { method: 'GET', path: pathname, instanceId: 'x', client: '1.2.3.4' }, now)
      const send = (header: string) =>
        call(a, pathname, { headers: { [RELAY_HEADER]: header, [RELAY_CLIENT_HEADER]: '1.2.3.4' } })
      expect((await send('forged.1.2.3')).status).toBe(403)
      expect((await send(signed(randomBytes(32)))).status).toBe(403)
      expect((await send(signed(relayKeyFrom(vaultKey), Date.now() - 31_000))).status).toBe(403)
      const valid = signed(relayKeyFrom(vaultKey))
      expect((await send(valid)).status).toBe(200)
      const replayed = await send(valid)
      expect(replayed.status).toBe(403)
      expect(await replayed.text()).not.toContain('package.json')
      // Signed for another path: refused.
      const other = await call(a, `/api/applications/${applicationId}/versions`, {
        headers: {
          [RELAY_HEADER]: signed(relayKeyFrom(vaultKey)),
          [RELAY_CLIENT_HEADER]: '1.2.3.4',
        },
      })
      expect(other.status).toBe(403)
    })

    it('answers a relayed request for a box another instance holds with 421, serving nothing', async () => {
      // B holds no lease of the app (A does): a relay that found B as the owner was out of date.
      // Not fetch: it sends a request answered 421 again by itself, replaying the nonce.
      const pathname = `/api/applications/${applicationId}/files`
      const misdirected = await rawRequest(b.port, `127.0.0.1:${b.port}`, pathname, {
        ...auth(),
        origin: 'http://localhost:3000',
        [RELAY_HEADER]: signRelay(relayKeyFrom(vaultKey), {
          method: 'GET',
          path: pathname,
          instanceId: 'x',
          client: '1.2.3.4',
        }),
        [RELAY_CLIENT_HEADER]: '1.2.3.4',
      })
      expect(misdirected.status).toBe(421)
      expect(misdirected.body).not.toContain('package.json')
      expect(await leaseOwner()).toBe(a.cluster?.instanceId)
    })

    it('gives a lease to exactly one of two instances taking it at once, 50 times', async () => {
      await a.database.execute(
        `insert into applications (id, organization_id, name, slug, initial_prompt, model)
       select $1, organization_id, 'race', $2, '', 'demo' from applications where id = $3`,
        [raceId, `race-${raceId.slice(0, 8)}`, applicationId],
      )
      const first = createBoxLeases(a.database, 'race-first')
      const second = createBoxLeases(b.database, 'race-second')
      for (let round = 0; round < 50; round++) {
        // Expired, so either may take it.
        await a.database.execute(
          `update box_leases set expires_at = now() - interval '1 second' where application_id = $1`,
          [raceId],
        )
        const won = await Promise.all([first.take(raceId), second.take(raceId)])
        expect(won.filter(Boolean)).toHaveLength(1)
      }
      expect(await first.take(randomUUID())).toBeUndefined()
    })

    it('gives up a lease it could not renew for fenceMs before it expires; another takes it then', async () => {
      const times = { leaseMs: 3_000, renewMs: 200, fenceMs: 1_500 }
      const owner = createBoxLeases(a.database, 'fence-owner', times)
      const next = createBoxLeases(b.database, 'fence-next', times)
      await a.database.execute('delete from box_leases where application_id = $1', [raceId])
      let lostWhileValid: boolean | undefined
      const blocker = new pg.Client({ connectionString: environmentA.DATABASE_URL })
      await blocker.connect()
      owner.onLost(async () => {
        const { rows } = await blocker.query(
          'select expires_at > now() as valid from box_leases where application_id = $1',
          [raceId],
        )
        lostWhileValid = rows[0]?.valid === true
      })
      expect(await owner.take(raceId)).toBe(true)
      owner.start()
      try {
        // Renewals wait behind this lock, as when the database cannot be reached; reads do not.
        await blocker.query('begin')
        await blocker.query('lock table box_leases in exclusive mode')
        await until(async () => lostWhileValid !== undefined, 10_000, 'the fence')
        expect(lostWhileValid).toBe(true)
        expect(owner.holds(raceId)).toBe(false)
        await blocker.query('commit')
        await until(async () => (await next.take(raceId)) === true, times.leaseMs + 5_000, 'B')
      } finally {
        owner.stop()
        await blocker.end()
      }
    })

    it('after A stops cleanly, B takes the lease and serves the preview', async () => {
      const { host, cookie } = await previewCookie(b)
      await a.stop()
      aStopped = true
      // The first pages may say 'Starting preview…' (503, reloading) while B opens the box.
      await until(
        async () => {
          const page = await rawRequest(b.port, host, '/', { cookie, accept: 'text/html' })
          return page.status === 200 && page.body.includes('<div id="root">')
        },
        90_000,
        "the preview through B after A's stop",
      )
      expect(b.devboxes.isOpen(applicationId)).toBe(true)
      const { rows } = await b.database.execute(
        'select instance_id from box_leases where application_id = $1',
        [applicationId],
      )
      expect(rows[0]?.instance_id).toBe(b.cluster?.instanceId)
    })
  },
)
