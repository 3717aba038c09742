import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { type DatabaseHandle, openDatabase } from '@sprout/db/database.ts'
import { migrateDatabase } from '@sprout/db/migrate.ts'
import pg from 'pg'

export const testDatabaseKind =
  process.env.SPROUT_TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite'

/** A PostgreSQL database of its own for one suite, dropped by `drop()`. */
export async function createPostgresDatabase(): Promise<{
  url: string
  drop: () => Promise<void>
}> {
  const baseUrl = process.env.TEST_DATABASE_URL
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set')
  const name = `sprout_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}

/** A migrated, empty database for one suite: PGlite in a temporary folder, or a fresh PostgreSQL database. */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  if (testDatabaseKind === 'pglite') {
    // A copy of the installation's cached, migrated cluster: an in-memory PGlite ran initdb and
    // every migration for each suite, 3–11 s of a test's set-up (docs/performance.md "CI time").
    const directory = await mkdtemp(path.join(os.tmpdir(), 'sprout-test-db-'))
    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(directory, 'pglite') })
    await migrateDatabase(database)
    return {
      ...database,
      close: async () => {
        await database.close()
        await rm(directory, { recursive: true, force: true })
      },
    }
  }
  const created = await createPostgresDatabase()
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 5 })
  await migrateDatabase(database)
  return {
    ...database,
    close: async () => {
      await database.close()
      await created.drop()
    },
  }
}
