import { randomBytes } from 'node:crypto'
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

/** A migrated, empty database for one suite: in-memory PGlite, or a fresh PostgreSQL database. */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  if (testDatabaseKind === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', dataDir: undefined })
    await migrateDatabase(database)
    return database
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
