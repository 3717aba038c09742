import path from 'node:path'
import { openDatabase } from '@sprout/db/database.ts'
import { migrateDatabase } from '@sprout/db/migrate.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from './config/config.ts'
import { startServer } from './start-server.ts'
import { testDatabaseKind } from './testing/database.ts'
import { requestServer, serverEnvironment, signUpOverHttp } from './testing/server-process.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const environmentForThisDatabase = () => serverEnvironment(cleanups, 'sprout-restart-')
const call = requestServer

describe(`restart safety (${testDatabaseKind})`, () => {
  it('keeps users, organizations and memberships across a restart', async () => {
    const environment = await environmentForThisDatabase()
    const config = parseConfig(environment)

    const first = await startServer(config, { serveWeb: false })
    const base = `http://127.0.0.1:${first.port}`
    const token = await signUpOverHttp(base, { email: 'keep@example.com', name: 'k' })
    const created = await call(base, '/api/auth/organization/create', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Kept', slug: 'kept' }),
    })
    const organizationId = ((await created.json()) as { id: string }).id
    await first.stop()

    const second = await startServer(config, { serveWeb: false })
    cleanups.push(second.stop)
    const secondBase = `http://127.0.0.1:${second.port}`
    const signIn = await call(secondBase, '/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: 'keep@example.com', password: 'correct-horse-battery' }),
    })
    expect(signIn.status).toBe(200)
    const newToken = signIn.headers.get('set-auth-token') ?? ''
    // The session issued before the restart is still valid: the signing secret was kept too.
    for (const bearer of [token, newToken]) {
      const lookup = await call(secondBase, `/api/organizations?clerk_id=${organizationId}`, {
        headers: { authorization: `Bearer ${bearer}` },
      })
      expect(lookup.status).toBe(200)
      expect(await lookup.json()).toEqual({ id: organizationId })
    }
  })

  it('applies migrations idempotently', async () => {
    const environment = await environmentForThisDatabase()
    const database = await openDatabase(
      environment.DATABASE_URL
        ? { kind: 'postgres', url: environment.DATABASE_URL }
        : { kind: 'pglite', dataDir: path.join(environment.DATA_DIR ?? '', 'pglite') },
    )
    cleanups.push(database.close)
    await migrateDatabase(database)
    const countMigrations = async () =>
      (await database.execute('select count(*)::int as total from drizzle.__drizzle_migrations'))
        .rows[0]
    const once = await countMigrations()
    await Promise.all([migrateDatabase(database), migrateDatabase(database)])
    expect(await countMigrations()).toEqual(once)
  })
})
