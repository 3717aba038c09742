// The admin's Users tab (docs/product/admin.md "Users tab") over 10,000 users, in process on
// PGlite through real HTTP: p50/p95 of GET /api/admin/users for the first page, a middle page,
// the same by name, and a search. Each user has a personal organization and a session, as after
// a sign-up, so the page's organizations and last-seen queries read real rows.

import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { member, organization, session, user } from '@sprout/db/schema/auth.ts'
import {
  createTestApp,
  type TestApp,
  type TestUser,
} from '../apps/server/src/testing/app-harness.ts'
import { milliseconds, quantile } from './lib/stats.ts'

const userCount = 10_000
const requestsPerCase = 200
const chunkSize = 1_000

async function seedUsers(db: Database, count: number) {
  const start = Date.now() - count * 60_000
  for (let offset = 0; offset < count; offset += chunkSize) {
    const rows = Array.from({ length: Math.min(chunkSize, count - offset) }, (_, index) => {
      const number = offset + index
      const created = new Date(start + number * 60_000)
      return {
        user: {
          id: randomUUID(),
          name: `Bench User ${number}`,
          email: `bench-user-${number}@example.com`,
          createdAt: created,
          updatedAt: created,
          role: 'user',
        },
        organizationId: randomUUID(),
        created,
      }
    })
    await db.insert(user).values(rows.map((row) => row.user))
    await db.insert(organization).values(
      rows.map((row) => ({
        id: row.organizationId,
        name: 'Personal',
        slug: `personal-${row.user.id}`,
        isPersonal: true,
        createdAt: row.created,
      })),
    )
    await db.insert(member).values(
      rows.map((row) => ({
        id: randomUUID(),
        organizationId: row.organizationId,
        userId: row.user.id,
        role: 'owner',
        createdAt: row.created,
      })),
    )
    await db.insert(session).values(
      rows.map((row) => ({
        id: randomUUID(),
        token: randomUUID(),
        userId: row.user.id,
        expiresAt: new Date(Date.now() + 86_400_000),
        createdAt: row.created,
        updatedAt: row.created,
      })),
    )
  }
}

async function timePages(harness: TestApp, admin: TestUser, query: string) {
  const url = `${harness.config.publicUrl.replace('localhost', '127.0.0.1')}/api/admin/users?${query}`
  const headers = { authorization: `Bearer ${admin.token}` }
  const times: number[] = []
  let rows = 0
  for (let index = 0; index < requestsPerCase; index++) {
    const started = performance.now()
    const response = await fetch(url, { headers })
    const page = (await response.json()) as { users: unknown[]; total: number }
    times.push(performance.now() - started)
    if (response.status !== 200) throw new Error(`GET ${query} answered ${response.status}`)
    rows = page.users.length
  }
  return { times, rows }
}

export async function benchAdminUsers(): Promise<Record<string, string>> {
  const harness = await createTestApp()
  try {
    await harness.listen()
    const admin = await harness.signUpAdmin()
    const seeding = performance.now()
    await seedUsers(harness.database.db, userCount)
    const figures: Record<string, string> = {
      [`seed ${userCount.toLocaleString('en-US')} users (user, personal organization, member, session)`]:
        milliseconds(performance.now() - seeding),
    }
    const unfiltered = {
      'first page, newest first': 'page=1',
      'page 100 of 201, newest first': 'page=100',
      'page 100 of 201, by name': 'page=100&sort=name',
    }
    const searches = {
      'search "user-42" (111 matches), first page': 'query=user-42',
      'search that matches nobody': 'query=nobody-at-all',
    }
    const measure = async (label: string, cases: Record<string, string>) => {
      for (const [name, query] of Object.entries(cases)) {
        const { times, rows } = await timePages(harness, admin, query)
        figures[`${label}${name} (${rows} rows, ${requestsPerCase} requests): p50 / p95 / max`] =
          `${milliseconds(quantile(times, 0.5))} / ${milliseconds(quantile(times, 0.95))} / ${milliseconds(Math.max(...times))}`
      }
    }
    await measure('', { ...unfiltered, ...searches })
    // What indexes on "user" would add to the unfiltered pages: little (docs/performance.md "Admin users").
    await harness.database.execute('create index bench_user_created_idx on "user" (created_at, id)')
    await harness.database.execute('create index bench_user_name_idx on "user" (lower(name), id)')
    await harness.database.execute('analyze "user"')
    await measure('with two indexes: ', unfiltered)
    return figures
  } finally {
    await harness.close()
  }
}
