import type { NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator'
import type { PgliteDatabase } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import type { DatabaseHandle } from './database.ts'
import { migrationsFolder } from './pglite-cluster.ts'

/** Applies pending migrations; safe to run on every start and from several processes at once. */
export async function migrateDatabase(database: DatabaseHandle): Promise<void> {
  await database.withExclusiveLock(async () => {
    if (database.kind === 'pglite') {
      await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder })
    } else {
      await migratePostgres(database.db as unknown as NodePgDatabase, { migrationsFolder })
    }
  })
}
