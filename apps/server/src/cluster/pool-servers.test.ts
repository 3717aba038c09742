// Two instances on one PostgreSQL and one SHARED_DIR share one pool, refilled by the leader; an
// app made through the other instance gets the leader's closed box and opens it there
// (docs/decisions/034-one-pool-in-a-table.md). PostgreSQL only: SHARED_DIR needs DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/config.ts'
import { startServer } from '../start-server.ts'
import { clusterEnvironments, until } from '../testing/cluster-environments.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { requestServer, signUpOverHttp } from '../testing/server-process.ts'

type Server = Awaited<ReturnType<typeof startServer>>

const cleanups: (() => Promise<void>)[] = []

describe.skipIf(testDatabaseKind !== 'postgres')(
  'one pool for two instances',
  { timeout: 300_000 },
  () => {
    let a: Server
    let b: Server
    const base = (server: Server) => `http://127.0.0.1:${server.port}`
    const poolRows = async () =>
      (await a.database.execute('select id, state, instance_id from devbox_pool')).rows as {
        id: string
        state: string
        instance_id: string
      }[]

    beforeAll(async () => {
      const {
        environments: [environmentA = {}, environmentB = {}],
      } = await clusterEnvironments(cleanups, {
        name: 'pool',
        publicPort: 29200,
        instances: 2,
        shared: {
          DEVBOX_POOL_TARGET: '1',
        },
      })
      a = await startServer(parseConfig(environmentA), { serveWeb: false })
      b = await startServer(parseConfig(environmentB), { serveWeb: false })
    }, 120_000)

    afterAll(async () => {
      await b?.stop()
      await a?.stop()
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    })

    it('the leader fills the pool; an app made through the other instance opens its box there', async () => {
      expect(a.created.leadership.isLeader()).toBe(true)
      await until(
        async () => (await poolRows()).some((row) => row.state === 'ready'),
        240_000,
        'a ready pool box',
      )
      const [made] = await poolRows()
      expect(made?.instance_id).toBe(a.cluster?.instanceId)
      expect(b.devboxes.pool.stats().global.provisioning).toBe(0)
      await until(
        async () => b.devboxes.pool.stats().packs.fullstack?.ready === 1,
        30_000,
        "B's look at the pool",
      )

      const token = await signUpOverHttp(base(b), { email: 'pool@example.com', name: 'p' })
      const headers = { authorization: `Bearer ${token}` }
      const created = await requestServer(base(b), '/api/applications', {
        method: 'POST',
        headers,
        body: JSON.stringify({ initial_prompt: 'a pool box through B', model: 'demo' }),
      })
      expect(created.status).toBe(201)
      const applicationId = ((await created.json()) as { id: string }).id
      const { rows } = await a.database.execute(
        'select id from devboxes where application_id = $1',
        [applicationId],
      )
      expect(rows[0]?.id).toBe(made?.id)
      await until(
        async () => {
          const response = await requestServer(
            base(b),
            `/api/applications/${applicationId}/editor-ready`,
            { headers },
          )
          return ((await response.json()) as { ready: boolean }).ready
        },
        120_000,
        'the pool box, opened on B',
      )
      expect(b.devboxes.isOpen(applicationId)).toBe(true)
      expect(a.devboxes.isOpen(applicationId)).toBe(false)
      expect((await poolRows()).map((row) => row.id)).not.toContain(made?.id)
    })
  },
)
