import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { type DatabaseHandle, openDatabase } from '@sprout/db/database.ts'
import type { LocalDriver } from '@sprout/devbox/drivers/local/local-driver.ts'
import { silentLogger } from '@sprout/devbox/logger.ts'
import { createDevboxPool, type DevboxPool } from '@sprout/devbox/pool.ts'
import type { PoolPersistence } from '@sprout/devbox/pool-persistence.ts'
import {
  createFakeTemplates,
  createTestDriver,
  devServerText,
  waitFor,
} from '@sprout/devbox/testing/devbox-support.ts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPoolTable } from '../devboxes/pool/pool-table.ts'
import { createTestDatabase, testDatabaseKind } from '../testing/database.ts'
import { registerInstance } from './instances.ts'
import { createLeadership, type Leadership } from './leader.ts'

// The pool as a table shared by instances (docs/decisions/034-one-pool-in-a-table.md): on PGlite
// two tables over one database stand for two instances; on PostgreSQL each has its connections.

let database: DatabaseHandle
let other: DatabaseHandle
let baseDirectory: string
let templatesDir: string
let rootDir: string
const cleanups: (() => Promise<unknown>)[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  other =
    database.kind === 'postgres' && process.env.TEST_DATABASE_URL
      ? await openDatabase({ kind: 'postgres', url: await urlOf(database), poolSize: 5 })
      : database
  baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-pool-table-'))
  templatesDir = await createFakeTemplates(path.join(baseDirectory, 'templates'))
  rootDir = path.join(baseDirectory, 'root')
})

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await database.execute('delete from devbox_pool')
  await database.execute('delete from sprout_instances')
})

afterAll(async () => {
  if (other !== database) await other.close()
  await database.close()
  await rm(baseDirectory, { recursive: true, force: true })
})

/** The URL of the suite's PostgreSQL database, so a second handle opens the same one. */
async function urlOf(handle: DatabaseHandle) {
  const { rows } = await handle.execute('select current_database() as name')
  const url = new URL(process.env.TEST_DATABASE_URL ?? '')
  url.pathname = `/${String(rows[0]?.name)}`
  return url.toString()
}

function driver(): LocalDriver {
  const created = createTestDriver({ rootDir, templatesDir })
  cleanups.push(() => created.shutdown())
  return created
}

function pool(options: Parameters<typeof createDevboxPool>[0]): DevboxPool {
  const created = createDevboxPool({ logger: silentLogger, ...options })
  cleanups.push(() => created.close())
  return created
}

const rowsOf = async () =>
  (await database.execute('select id, state, instance_id from devbox_pool order by created_at'))
    .rows as { id: string; state: string; instance_id: string }[]

describe('the dev box pool in a table', { timeout: 240_000 }, () => {
  it('two instances claim at once 100 times: no box is given twice', async () => {
    // Two shared pools on one database, as two instances' (neither refills: the rows are put here).
    const pools = [database, other].map((handle, index) =>
      pool({
        driver: driver(),
        targets: { fullstack: 0 },
        persistence: createPoolTable(handle.db, {
          instanceId: () => `maker-${index}`,
          shared: true,
        }),
        shared: { mayRefill: () => false },
      }),
    )
    const maker = createPoolTable(database.db, { instanceId: () => 'maker-0', shared: true })
    for (let index = 0; index < 100; index += 1) {
      await maker.put({ id: `box-${index}`, packType: 'fullstack', state: 'ready' })
    }
    for (const each of pools) await each.start()
    const given: string[] = []
    for (let round = 0; round < 100; round += 1) {
      const claims = await Promise.all(pools.map((each) => each.take('fullstack')))
      for (const claimed of claims) if (claimed) given.push(claimed.id)
    }
    expect(given).toHaveLength(100)
    expect(new Set(given).size).toBe(100)
    expect(await rowsOf()).toEqual([])
  })

  it('alone, an instance claims only the boxes it made, and only ready ones', async () => {
    const mine = createPoolTable(database.db, { instanceId: () => 'mine', shared: false })
    const theirs = createPoolTable(other.db, { instanceId: () => 'theirs', shared: false })
    await theirs.put({ id: 'their-box', packType: 'fullstack', state: 'ready' })
    await mine.put({ id: 'my-half-box', packType: 'fullstack', state: 'provisioning' })
    expect(await mine.claim('fullstack')).toBeUndefined()
    await mine.put({ id: 'my-half-box', packType: 'fullstack', state: 'ready' })
    expect(await mine.claim('vite-react')).toBeUndefined()
    expect(await mine.claim('fullstack')).toBe('my-half-box')
    expect(await theirs.claim('fullstack')).toBe('their-box')
  })

  it('shared, instances claim and count only the current starter’s boxes; the leader drops a gone instance’s older ones', async () => {
    const instance = await registerInstance(database, 'upgraded', 'http://127.0.0.1:1')
    cleanups.push(() => instance.stop())
    const upgraded = createPoolTable(database.db, { instanceId: () => 'upgraded', shared: true })
    const gone = createPoolTable(other.db, { instanceId: () => 'gone', shared: true })
    await gone.put({ id: 'old-box', packType: 'fullstack', state: 'ready', template: 'v1' })
    await upgraded.put({ id: 'new-box', packType: 'fullstack', state: 'ready', template: 'v2' })
    expect(await upgraded.count?.('fullstack', 'v2')).toEqual({ ready: 1, provisioning: 0 })
    expect(await upgraded.claim('fullstack', 'v3')).toBeUndefined()
    expect(await upgraded.takeAbandoned?.(() => 'v2')).toEqual(['old-box'])
    expect(await upgraded.claim('fullstack', 'v2')).toBe('new-box')
    expect(await upgraded.count?.('fullstack')).toEqual({ ready: 0, provisioning: 0 })
  })

  it('reuses its rows after a restart, and adopts an older version’s pool.json once', async () => {
    const dataDir = path.join(baseDirectory, 'restart')
    const legacyFile = path.join(dataDir, 'devboxes', 'pool.json')
    const table = () => createPoolTable(database.db, { instanceId: () => 'here', shared: false })
    // Each start with a driver of its own, shut down with it, as a restarted server.
    const start = async (persistence: PoolPersistence) => {
      const ownDriver = driver()
      const started = pool({ driver: ownDriver, targets: { 'vite-react': 1 }, persistence })
      await started.start()
      return {
        ...started,
        close: async () => {
          await started.close()
          await ownDriver.shutdown()
        },
      }
    }
    const first = await start(table())
    await waitFor(async () => (await rowsOf()).some((row) => row.state === 'ready'), 120_000)
    await first.close()
    // What an older version left: its ready box in pool.json, and a box it never finished.
    const [made] = await rowsOf()
    await database.execute('delete from devbox_pool')
    const orphan = path.join(rootDir, 'workspaces', 'orphan-box')
    await mkdir(orphan, { recursive: true })
    await mkdir(path.dirname(legacyFile), { recursive: true })
    await writeFile(
      legacyFile,
      JSON.stringify([
        { id: made?.id, packType: 'vite-react', state: 'ready' },
        { id: 'orphan-box', packType: 'vite-react', state: 'provisioning' },
      ]),
    )
    const adopting = await start(
      createPoolTable(database.db, { instanceId: () => 'here', shared: false, legacyFile }),
    )
    expect(adopting.stats().packs['vite-react']?.ready).toBe(1)
    expect(existsSync(legacyFile)).toBe(false)
    expect(existsSync(orphan)).toBe(false)
    expect(await rowsOf()).toEqual([{ id: made?.id, state: 'ready', instance_id: 'here' }])
    await adopting.close()
    const again = await start(table())
    const box = await again.claim('vite-react')
    expect(box?.id).toBe(made?.id)
    expect(await devServerText(box?.devServer.target())).toBe('fake dev server')
    // Out of the table (its replacement may already be on its way).
    expect((await rowsOf()).map((row) => row.id)).not.toContain(made?.id)
  })

  it('the leader destroys the boxes a gone instance left half-provisioned, keeps its ready ones, drops a lone instance’s', async () => {
    const alive = await registerInstance(database, 'alive', 'http://127.0.0.1:1')
    cleanups.push(() => alive.stop())
    const gone = createPoolTable(other.db, { instanceId: () => 'gone', shared: true })
    await gone.put({ id: 'gone-ready', packType: 'vite-react', state: 'ready' })
    await gone.put({ id: 'gone-half', packType: 'vite-react', state: 'provisioning' })
    // A lone instance's box from before SHARED_DIR: under its own DATA_DIR, not the shared one.
    const alone = createPoolTable(other.db, {
      instanceId: () => 'local:elsewhere:/data',
      shared: false,
    })
    await alone.put({ id: 'lone-ready', packType: 'vite-react', state: 'ready' })
    const half = path.join(rootDir, 'workspaces', 'gone-half')
    await mkdir(half, { recursive: true })
    const leader = pool({
      driver: driver(),
      targets: { 'vite-react': 0 },
      persistence: createPoolTable(database.db, { instanceId: () => 'alive', shared: true }),
      shared: { mayRefill: () => true, intervalMs: 100 },
    })
    await leader.start()
    await waitFor(() => !existsSync(half), 30_000)
    expect((await rowsOf()).map((row) => row.id)).toEqual(['gone-ready'])
    expect(leader.stats().packs['vite-react']?.ready).toBe(1)
  })
})

describe.skipIf(testDatabaseKind !== 'postgres')(
  'the shared pool across instances (PostgreSQL)',
  { timeout: 300_000 },
  () => {
    /** An instance: its row, its leadership and its shared pool, closed by the suite's clean-up. */
    async function instance(id: string, handle: DatabaseHandle) {
      const registered = await registerInstance(handle, id, 'http://127.0.0.1:1')
      const leadership: Leadership = createLeadership(handle, { retryMs: 200 })
      const shared = pool({
        driver: driver(),
        targets: { 'vite-react': 1 },
        persistence: createPoolTable(handle.db, { instanceId: () => id, shared: true }),
        shared: { mayRefill: leadership.isLeader, intervalMs: 200 },
      })
      cleanups.push(() => registered.stop())
      cleanups.push(() => leadership.stop())
      await leadership.start()
      await shared.start()
      return { leadership, pool: shared }
    }

    it('refills on the leader only, another instance claims its box, and a new leader takes over', async () => {
      const first = await instance('first', database)
      const second = await instance('second', other)
      expect(first.leadership.isLeader()).toBe(true)
      expect(second.leadership.isLeader()).toBe(false)
      await waitFor(async () => (await rowsOf()).some((row) => row.state === 'ready'), 120_000)
      // One box for the target of one, made by the leader; the follower provisioned nothing.
      const [made] = await rowsOf()
      expect(await rowsOf()).toEqual([{ id: made?.id, state: 'ready', instance_id: 'first' }])
      expect(second.pool.stats().global.provisioning).toBe(0)
      // Kept closed by its maker: the follower opens it.
      const claimed = await second.pool.claim('vite-react')
      expect(claimed?.id).toBe(made?.id)
      expect(await devServerText(claimed?.devServer.target())).toBe('fake dev server')
      // The leader's replacement, under way or ready, is finished by its clean stop.
      await first.leadership.stop()
      await first.pool.close()
      expect((await rowsOf()).filter((row) => row.state === 'provisioning')).toEqual([])
      await waitFor(() => second.leadership.isLeader(), 30_000)
      // Its files stay claimable; once taken, the new leader makes the next box.
      while (await second.pool.take('vite-react')) {}
      await waitFor(
        async () =>
          (await rowsOf()).some((row) => row.state === 'ready' && row.instance_id === 'second'),
        120_000,
      )
      expect((await rowsOf()).filter((row) => row.instance_id === 'first')).toEqual([])
      expect(first.pool.stats().global.provisioning).toBe(0)
    })
  },
)
