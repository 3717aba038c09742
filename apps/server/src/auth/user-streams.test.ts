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

// Two server processes on one database, as two instances on one handle: a session ended in one
// ends its streams in the other too (docs/product/admin.md "Users tab").
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

  const ada = (sessionId: string) => ({ userId: 'ada', sessionId })

  it('ends the ended sessions’ streams in every process, and only theirs', async () => {
    const closed: string[] = []
    here.hold(ada('laptop'), () => closed.push('laptop here'))
    there.hold(ada('laptop'), () => closed.push('laptop there'))
    there.hold(ada('phone'), () => closed.push('phone there'))
    const releaseOther = there.hold({ userId: 'bob', sessionId: 'bob' }, () => closed.push('bob'))
    await here.endSessions(['laptop'])
    expect(closed).toContain('laptop here')
    await waitFor(() => closed.includes('laptop there'), 'the other process')
    expect(closed.sort()).toEqual(['laptop here', 'laptop there'])
    expect([here.openCount('ada'), there.openCount('ada'), there.openCount('bob')]).toEqual([
      0, 1, 1,
    ])
    expect(await there.isLive('laptop')).toBe(false)
    releaseOther()
    expect(there.openCount('bob')).toBe(0)
  })

  it('ends at once a stream that registers after its session ended', async () => {
    await here.endSessions(['tablet'])
    let closes = 0
    here.hold(ada('tablet'), () => {
      closes += 1
    })
    expect(closes).toBe(1)
    expect(here.openCount('ada')).toBe(0)
  })

  it('forgets a stream once it ended on its own', async () => {
    let closes = 0
    const release = here.hold({ userId: 'cleo', sessionId: 'cleo' }, () => {
      closes += 1
    })
    release()
    await here.endSessions(['cleo'])
    expect(closes).toBe(0)
  })
})
