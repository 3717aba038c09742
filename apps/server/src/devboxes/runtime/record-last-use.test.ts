// The boxes' last use in their rows (docs/decisions/036-idle-stops-from-the-row.md): written from
// each instance's uses by their age, read by the database's clock, on a real database.
import { randomUUID } from 'node:crypto'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { organization } from '@sprout/db/schema/auth.ts'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../testing/database.ts'
import { recordLastUse, usedElsewhere } from './record-last-use.ts'
import { createUsageTracker } from './usage-tracker.ts'

describe('the boxes’ last use in their rows', () => {
  let database: DatabaseHandle
  const ids = { a: randomUUID(), b: randomUUID(), c: randomUUID() }

  /** An instance's tracker, on a clock of its own that the test moves. */
  const instance = (offsetMs = 0) => {
    let now = Date.now() + offsetMs
    const usage = createUsageTracker({ idleMs: 60_000, now: () => now })
    return {
      usage,
      advance: (ms: number) => (now += ms),
      record: () => recordLastUse({ db: database.db, usage }),
    }
  }
  const used = (idleMs: number) =>
    usedElsewhere({ db: database.db, idleMs }, Object.values(ids)).then((found) =>
      Object.entries(ids)
        .filter(([, id]) => found.has(id))
        .map(([name]) => name),
    )
  const lastUsedAt = async (id: string) => {
    const [row] = await database.db
      .select({ lastUsedAt: devboxes.lastUsedAt })
      .from(devboxes)
      .where(eq(devboxes.applicationId, id))
    return row?.lastUsedAt ?? null
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    const organizationId = randomUUID()
    await database.db.insert(organization).values({
      id: organizationId,
      name: 'Org',
      slug: `org-${organizationId.slice(0, 8)}`,
      createdAt: new Date(),
    })
    for (const id of Object.values(ids)) {
      await database.db.insert(applications).values({
        id,
        organizationId,
        name: 'App',
        slug: `app-${id.slice(0, 8)}`,
        initialPrompt: 'An app',
        model: 'demo',
      })
      await database.db
        .insert(devboxes)
        .values({ id: randomUUID(), applicationId: id, packType: 'fullstack', status: 'ready' })
    }
  })
  afterAll(() => database?.close())

  it('writes each use by its age, and tells which boxes were used within the idle time', async () => {
    const b = instance()
    b.usage.touch(ids.a)
    b.advance(20_000)
    b.usage.touch(ids.b)
    await b.record()
    expect(await used(10_000)).toEqual(['b'])
    expect(await used(60_000)).toEqual(['a', 'b'])
    // Never used anywhere: no row time, so never counted as used.
    expect(await lastUsedAt(ids.c)).toBeNull()
  })

  it('never moves a last use back, and a clock ahead by an hour writes no future', async () => {
    const before = await lastUsedAt(ids.b)
    const late = instance()
    late.usage.touch(ids.b)
    late.advance(50_000) // the write of an older use arrives after a newer one
    await late.record()
    expect(await lastUsedAt(ids.b)).toEqual(before)

    const ahead = instance(3_600_000)
    ahead.usage.touch(ids.c)
    await ahead.record()
    const written = (await lastUsedAt(ids.c))?.getTime() ?? 0
    expect(written).toBeLessThan(Date.now() + 60_000)
    expect(await used(10_000)).toContain('c')
  })

  it('writes a held box at every write, and more uses than one statement takes', async () => {
    const b = instance()
    const release = b.usage.hold(ids.a)
    await b.record()
    expect(await used(10_000)).toContain('a')
    release()
    // 33,000 applications (66,000 parameters, over PostgreSQL's 65,535), the real one last.
    for (let index = 0; index < 33_000; index++) b.usage.touch(`gone-${index}`)
    const previous = (await lastUsedAt(ids.c))?.getTime() ?? 0
    b.advance(1)
    b.usage.touch(ids.c)
    await b.record()
    expect((await lastUsedAt(ids.c))?.getTime()).toBeGreaterThanOrEqual(previous)
    expect(b.usage.takeUnrecorded().size).toBe(0)
  })
})
