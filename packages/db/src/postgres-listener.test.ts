import { afterAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from './database.ts'

const postgresUrl = process.env.TEST_DATABASE_URL
const handles: DatabaseHandle[] = []
afterAll(async () => {
  for (const handle of handles) await handle.close()
})

const waitFor = async (condition: () => boolean | Promise<boolean>, withinMs = 5000) => {
  const deadline = Date.now() + withinMs
  while (!(await condition()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return condition()
}

/** Two critical sections of one name never overlap; `overlaps` counts those that did. */
const exclusiveWork = (state: { inside: number; overlaps: number }) => async () => {
  state.inside++
  if (state.inside > 1) state.overlaps++
  await new Promise((resolve) => setTimeout(resolve, 20))
  state.inside--
}

describe.skipIf(!postgresUrl)('the PostgreSQL listener and named locks', () => {
  it('reports a reconnect after its connection is cut, and hears notifications again', async () => {
    const applicationName = `sprout-listener-test-${process.pid}-${Date.now()}`
    const database = await openDatabase({
      kind: 'postgres',
      url: postgresUrl ?? '',
      applicationName,
      listenerRetryMs: 50,
    })
    handles.push(database)
    const received: string[] = []
    let reconnects = 0
    const stop = await database.listen(
      'sprout_reconnect_test',
      (payload) => received.push(payload),
      {
        onReconnect: () => reconnects++,
      },
    )
    const listenerPid = async () => {
      const { rows } = await database.execute(
        'select pid from pg_stat_activity where application_name = $1',
        [`${applicationName} listener`],
      )
      return rows[0] ? Number(rows[0].pid) : undefined
    }
    const cut = await listenerPid()
    expect(cut).toBeDefined()
    await database.execute('select pg_terminate_backend($1, 5000)', [cut])
    expect(await waitFor(() => reconnects === 1)).toBe(true)
    expect(await listenerPid()).not.toBe(cut)
    await database.notify('sprout_reconnect_test', 'after')
    expect(await waitFor(() => received.includes('after'))).toBe(true)
    await stop()
    // A stopped subscription is not told of later reconnects.
    const second = await listenerPid()
    await database.execute('select pg_terminate_backend($1, 5000)', [second])
    expect(await waitFor(async () => ![undefined, second].includes(await listenerPid()))).toBe(true)
    expect(reconnects).toBe(1)
  })

  it('runs one holder of a name at a time across handles, and other names alongside', async () => {
    const first = await openDatabase({ kind: 'postgres', url: postgresUrl ?? '', poolSize: 3 })
    const second = await openDatabase({ kind: 'postgres', url: postgresUrl ?? '', poolSize: 3 })
    handles.push(first, second)
    const name = `test-lock-${process.pid}-${Date.now()}`
    const state = { inside: 0, overlaps: 0 }
    const work = exclusiveWork(state)
    // More holders than either pool has connections: each queries only through its own.
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (index % 2 ? first : second).withNamedLock(name, async (db) => {
          await work()
          await db.execute('select 1')
        }),
      ),
    )
    expect(state.overlaps).toBe(0)

    let otherRan = false
    await first.withNamedLock(`${name}-a`, () =>
      second.withNamedLock(`${name}-b`, async () => {
        otherRan = true
      }),
    )
    expect(otherRan).toBe(true)
  })
})
