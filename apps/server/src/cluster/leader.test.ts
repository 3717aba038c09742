import { spawn } from 'node:child_process'
import path from 'node:path'
import { type DatabaseHandle, openDatabase } from '@sprout/db/database.ts'
import { migrateDatabase } from '@sprout/db/migrate.ts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  createPostgresDatabase,
  createTestDatabase,
  testDatabaseKind,
} from '../testing/database.ts'
import { createLeadership, LEADER_LOCK_KEY, type Leadership } from './leader.ts'

const retryMs = 200

/** Another process that takes part in the election and says when it leads. */
const otherProcessScript = `
import { openDatabase } from '@sprout/db/database.ts'
import { createLeadership } from ${JSON.stringify(path.join(import.meta.dirname, 'leader.ts'))}
const database = await openDatabase({ kind: 'postgres', url: process.env.LEADER_TEST_URL, poolSize: 1 })
const leadership = createLeadership(database, { retryMs: ${retryMs} })
leadership.onLeadershipChange((leader) => console.log(leader ? 'leader' : 'follower'))
await leadership.start()
setInterval(() => {}, 1000)
`

async function waitFor(condition: () => boolean | Promise<boolean>, withinMs: number) {
  const deadline = Date.now() + withinMs
  while (!(await condition())) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return true
}

/** Instances' leaderships, counting how many lead at once (listeners run in this one process). */
function trackLeaders() {
  let current = 0
  let most = 0
  return {
    watch: (leadership: Leadership) => {
      leadership.onLeadershipChange((leader) => {
        current += leader ? 1 : -1
        most = Math.max(most, current)
      })
      return leadership
    },
    current: () => current,
    most: () => most,
  }
}

describe.skipIf(testDatabaseKind !== 'postgres')(
  'one leader among instances (PostgreSQL)',
  {
    timeout: 120_000,
  },
  () => {
    let instances: [DatabaseHandle, DatabaseHandle]
    let drop: () => Promise<void>
    let url: string
    const started: Leadership[] = []

    /** The backend holding the leader's lock, as PostgreSQL sees it. */
    const lockHolders = async () => {
      const { rows } = await instances[0].execute(
        `select pid from pg_locks where locktype = 'advisory' and granted
       and classid = 0 and objid = $1 and objsubid = 1 and database = (
         select oid from pg_database where datname = current_database())`,
        [LEADER_LOCK_KEY],
      )
      return rows.map((row) => Number(row.pid))
    }
    const leadership = (database: DatabaseHandle) => {
      const created = createLeadership(database, { retryMs })
      started.push(created)
      return created
    }

    beforeAll(async () => {
      ;({ url, drop } = await createPostgresDatabase())
      instances = [
        await openDatabase({ kind: 'postgres', url, poolSize: 3 }),
        await openDatabase({ kind: 'postgres', url, poolSize: 3 }),
      ]
      await migrateDatabase(instances[0])
    })
    afterEach(async () => {
      for (const created of started.splice(0)) await created.stop()
    })
    afterAll(async () => {
      for (const database of instances ?? []) await database.close()
      await drop?.()
    })

    it('has exactly one leader; a killed connection or a stop hands it to the other within 5 s', async () => {
      const tracked = trackLeaders()
      const first = tracked.watch(leadership(instances[0]))
      const second = tracked.watch(leadership(instances[1]))
      await first.start()
      await second.start()
      expect(first.isLeader()).toBe(true)
      expect(second.isLeader()).toBe(false)
      expect(await lockHolders()).toHaveLength(1)

      // The leader's connection is killed: it steps down, and the other takes over.
      const [holder] = await lockHolders()
      await instances[1].execute('select pg_terminate_backend($1)', [holder])
      expect(await waitFor(() => second.isLeader(), 5_000)).toBe(true)
      expect(first.isLeader()).toBe(false)
      expect(await lockHolders()).toHaveLength(1)

      // A clean stop releases it at once.
      const stoppedAt = Date.now()
      await second.stop()
      expect(second.isLeader()).toBe(false)
      expect(await waitFor(() => first.isLeader(), 5_000)).toBe(true)
      expect(Date.now() - stoppedAt).toBeLessThan(5_000)
      expect(tracked.most()).toBe(1)
      expect(tracked.current()).toBe(1)
    })

    it('hands it on within 5 s when the leading process is killed (SIGKILL)', async () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', otherProcessScript], {
        env: { ...process.env, LEADER_TEST_URL: url },
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      let output = ''
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        output += text
      })
      const exited = new Promise((resolve) => child.once('exit', resolve))
      try {
        expect(await waitFor(() => output.includes('leader'), 20_000)).toBe(true)
        const here = leadership(instances[0])
        await here.start()
        expect(here.isLeader()).toBe(false)
        child.kill('SIGKILL')
        await exited
        const killedAt = Date.now()
        expect(await waitFor(() => here.isLeader(), 5_000)).toBe(true)
        expect(Date.now() - killedAt).toBeLessThan(5_000)
        expect(await lockHolders()).toHaveLength(1)
      } finally {
        child.kill('SIGKILL')
      }
    })

    it('never has two leaders when both start at once, twenty times over', async () => {
      for (let round = 0; round < 20; round++) {
        const tracked = trackLeaders()
        const pair = [
          tracked.watch(leadership(instances[0])),
          tracked.watch(leadership(instances[1])),
        ]
        await Promise.all(pair.map((one) => one.start()))
        expect(await waitFor(() => tracked.current() === 1, 5_000)).toBe(true)
        expect(pair.filter((one) => one.isLeader())).toHaveLength(1)
        expect(await lockHolders()).toHaveLength(1)
        // Half the rounds the leader stops, and the other must take over alone.
        if (round % 2 === 1) {
          const leader = pair.find((one) => one.isLeader())
          await leader?.stop()
          expect(await waitFor(() => tracked.current() === 1, 5_000)).toBe(true)
          expect(pair.filter((one) => one.isLeader())).toHaveLength(1)
        }
        await Promise.all(pair.map((one) => one.stop()))
        expect(tracked.most()).toBe(1)
        expect(await waitFor(async () => (await lockHolders()).length === 0, 5_000)).toBe(true)
      }
    })
  },
)

describe.skipIf(testDatabaseKind !== 'pglite')('the leader on PGlite', () => {
  it('is the one instance, always', async () => {
    const database = await createTestDatabase()
    try {
      const leadership = createLeadership(database)
      const changes: boolean[] = []
      leadership.onLeadershipChange((leader) => changes.push(leader))
      expect(leadership.isLeader()).toBe(true)
      await leadership.start()
      expect(changes).toEqual([true])
      await leadership.stop()
    } finally {
      await database.close()
    }
  })
})
