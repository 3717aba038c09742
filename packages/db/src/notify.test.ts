import { afterAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from './database.ts'

const postgresUrl = process.env.TEST_DATABASE_URL
const handles: DatabaseHandle[] = []
afterAll(async () => {
  for (const handle of handles) await handle.close()
})

const waitFor = async (condition: () => boolean) => {
  const deadline = Date.now() + 5000
  while (!condition() && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10))
}

describe('LISTEN/NOTIFY', () => {
  // An in-memory PGlite runs initdb first: 11 s alone, past 30 s when CI's first suites start
  // beside it. The bound is for that, not for the notice.
  it('wakes a listener on PGlite', { timeout: 120_000 }, async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: undefined })
    handles.push(database)
    const received: string[] = []
    const stop = await database.listen('sprout_test', (payload) => received.push(payload))
    await database.notify('sprout_test', 'hello')
    await waitFor(() => received.length > 0)
    expect(received).toEqual(['hello'])
    await stop()
    await database.notify('sprout_test', 'after stop')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(received).toEqual(['hello'])
  })

  it.skipIf(!postgresUrl)('wakes a listener in another process on PostgreSQL', async () => {
    const first = await openDatabase({ kind: 'postgres', url: postgresUrl ?? '' })
    const second = await openDatabase({ kind: 'postgres', url: postgresUrl ?? '' })
    handles.push(first, second)
    const received: string[] = []
    await second.listen('sprout_test_pg', (payload) => received.push(payload))
    await first.notify('sprout_test_pg', 'across')
    await waitFor(() => received.length > 0)
    expect(received).toEqual(['across'])
  })
})
