import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import pg from 'pg'
import { pgliteStartParams, prepareClusterFromCache } from './pglite-cluster.ts'
import { createPostgresListener } from './postgres-listener.ts'
import { schema } from './schema.ts'

export type Schema = typeof schema
export type Database = PgDatabase<PgQueryResultHKT, Schema>

export type DatabaseHandle = {
  kind: 'pglite' | 'postgres'
  db: Database
  /** Runs raw SQL: migrations' advisory lock, LISTEN/NOTIFY and tests. */
  execute: (sql: string, parameters?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>
  /** Sends a NOTIFY on `channel`; every process listening on it (this one too) is woken. */
  notify: (channel: string, payload: string) => Promise<void>
  /** LISTENs on `channel`; returns a function that stops listening. */
  listen: (channel: string, handler: (payload: string) => void) => Promise<() => Promise<void>>
  /** Runs work while holding a cluster-wide lock, so two starting servers do not race. */
  withExclusiveLock: <T>(work: () => Promise<T>) => Promise<T>
  close: () => Promise<void>
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | {
      kind: 'pglite'
      dataDir: string | undefined
      /** Where ready-made clusters are cached (pglite-cluster.ts); `defaultClusterCacheDir()`. */
      clusterCacheDir?: string
    }

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 })
    // A failed idle connection must not crash the process; the next query reconnects.
    pool.on('error', (error) => console.error('[db] idle client error:', error.message))
    await pool.query('select 1')
    const listener = createPostgresListener(options.url)
    return {
      kind: 'postgres',
      db: drizzlePostgres({ client: pool, schema }) as unknown as Database,
      execute: async (sql, parameters) => {
        const result = await pool.query(sql, parameters)
        return { rows: result.rows }
      },
      withExclusiveLock: async (work) => {
        const client = await pool.connect()
        try {
          await client.query('select pg_advisory_lock(727274)')
          return await work()
        } finally {
          await client.query('select pg_advisory_unlock(727274)').catch(() => undefined)
          client.release()
        }
      },
      notify: async (channel, payload) => {
        await pool.query('select pg_notify($1, $2)', [channel, payload])
      },
      listen: listener.listen,
      close: async () => {
        await listener.close()
        await pool.end()
      },
    }
  }
  if (options.dataDir) {
    await mkdir(path.dirname(path.resolve(options.dataDir)), { recursive: true })
    await prepareClusterFromCache(options.dataDir, options.clusterCacheDir)
  }
  const client = new PGlite(options.dataDir, { startParams: await pgliteStartParams() })
  await client.waitReady
  return {
    kind: 'pglite',
    db: drizzlePglite({ client, schema }) as unknown as Database,
    execute: async (sql, parameters) => {
      const result = await client.query<Record<string, unknown>>(sql, parameters)
      return { rows: result.rows }
    },
    withExclusiveLock: (work) => work(),
    notify: async (channel, payload) => {
      await client.query('select pg_notify($1, $2)', [channel, payload])
    },
    listen: async (channel, handler) => {
      const unsubscribe = await client.listen(channel, handler)
      return () => unsubscribe()
    },
    close: () => client.close(),
  }
}
