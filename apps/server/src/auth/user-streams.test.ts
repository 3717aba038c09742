import type { DatabaseHandle } from '@sprout/db/database.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/database.ts'
import { createUserStreams, type UserStreams } from './user-streams.ts'

/** Resolves once `condition` holds, checking every 5 ms (up to 2 s). */
async function waitFor(condition: () => boolean, what: string) {
  const deadline = Date.now() + 2_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

// Two server processes on one database, as two instances on one handle: what one signs out, the
// other ends too (docs/product/admin.md "Users tab").
describe('user streams across processes', () => {
  let database: DatabaseHandle
  let here: UserStreams
  let there: UserStreams
  beforeAll(async () => {
    database = await createTestDatabase()
    here = createUserStreams(database)
    there = createUserStreams(database)
    await here.start()
    await there.start()
  })
  afterAll(async () => {
    await here.stop()
    await there.stop()
    await database.close()
  })

  it('ends the user’s streams in every process, and only theirs', async () => {
    const closed: string[] = []
    here.hold('ada', () => closed.push('ada here'))
    there.hold('ada', () => closed.push('ada there'))
    const releaseOther = there.hold('bob', () => closed.push('bob there'))
    const before = Date.now()
    await here.closeAll('ada')
    expect(closed).toContain('ada here')
    await waitFor(() => closed.includes('ada there'), 'the other process')
    expect(closed.sort()).toEqual(['ada here', 'ada there'])
    expect([here.openCount('ada'), there.openCount('ada'), there.openCount('bob')]).toEqual([
      0, 0, 1,
    ])
    expect(there.signedOutSince('ada', before)).toBe(true)
    expect(there.signedOutSince('bob', 0)).toBe(false)
    releaseOther()
    expect(there.openCount('bob')).toBe(0)
  })

  it('forgets a stream once it ended on its own', async () => {
    let closes = 0
    const release = here.hold('cleo', () => {
      closes += 1
    })
    release()
    await here.closeAll('cleo')
    expect(closes).toBe(0)
  })
})
