import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import pg from 'pg'
import { pgliteStartParams, prepareClusterFromCache } from './pglite-cluster.ts'
import { createPostgresListener, type ListenOptions } from './postgres-listener.ts'
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
  /**
   * LISTENs on `channel`; returns a function that stops listening. `onReconnect` is called when
   * the listening connection came back after a failure (PostgreSQL only): notifications sent
   * while it was down are lost.
   */
  listen: (
    channel: string,
    handler: (payload: string) => void,
    options?: ListenOptions,
  ) => Promise<() => Promise<void>>
  /** Runs work while holding a cluster-wide lock, so two starting servers do not race. */
  withExclusiveLock: <T>(work: () => Promise<T>) => Promise<T>
  /**
   * Runs work while holding the lock named `name` in every process on this database (PostgreSQL:
   * an advisory lock). `work` gets the locked connection and must query through it: a pool taken
   * up by lock holders waiting for another connection would never free itself.
   */
  withNamedLock: <T>(name: string, work: (db: Database) => Promise<T>) => Promise<T>
  /**
   * PostgreSQL only: a connection of its own, outside the pool, for state that lasts as long as
   * its session (the leader's advisory lock); named `{applicationName} session`. The caller ends
   * it.
   */
  openSession?: () => Promise<pg.Client>
  close: () => Promise<void>
}

export type DatabaseOptions =
  | {
      kind: 'postgres'
      url: string
      poolSize?: number
      /** `application_name` of the connections (the listener's is `{name} listener`); `sprout`. */
      applicationName?: string
      /** How long the listener waits before reconnecting after a failure; 500 ms. */
      listenerRetryMs?: number
    }
  | {
      kind: 'pglite'
      dataDir: string | undefined
      /** Where ready-made clusters are cached (pglite-cluster.ts); `defaultClusterCacheDir()`. */
      clusterCacheDir?: string
    }

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') {
    const applicationName = options.applicationName ?? 'sprout'
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      application_name: applicationName,
    })
    // A failed idle connection must not crash the process; the next query reconnects.
    pool.on('error', (error) => console.error('[db] idle client error:', error.message))
    await pool.query('select 1')
    const listener = createPostgresListener(options.url, {
      applicationName,
      retryMs: options.listenerRetryMs,
    })
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
      withNamedLock: async (name, work) => {
        const client = await pool.connect()
        let broken = false
        try {
          // The two-key form keeps these apart from the single-key lock of withExclusiveLock.
          await client.query('select pg_advisory_lock(727275, hashtext($1))', [name])
          return await work(drizzlePostgres({ client, schema }) as unknown as Database)
        } finally {
          await client
            .query('select pg_advisory_unlock(727275, hashtext($1))', [name])
            .catch(() => {
              broken = true
            })
          // A connection whose unlock failed may still hold the lock: it is closed, not reused.
          client.release(broken)
        }
      },
      notify: async (channel, payload) => {
        await pool.query('select pg_notify($1, $2)', [channel, payload])
      },
      listen: listener.listen,
      openSession: async () => {
        const client = new pg.Client({
          connectionString: options.url,
          application_name: `${applicationName} session`,
        })
        await client.connect()
        return client
      },
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
  const db = drizzlePglite({ client, schema }) as unknown as Database
  const namedLocks = new Map<string, Promise<void>>()
  return {
    kind: 'pglite',
    db,
    execute: async (sql, parameters) => {
      const result = await client.query<Record<string, unknown>>(sql, parameters)
      return { rows: result.rows }
    },
    withExclusiveLock: (work) => work(),
    // One process serves a PGlite database: a queue per name in memory is the whole lock.
    withNamedLock: async (name, work) => {
      const before = namedLocks.get(name) ?? Promise.resolve()
      const done = before.then(() => work(db))
      const settled = done.then(
        () => undefined,
        () => undefined,
      )
      namedLocks.set(name, settled)
      void settled.then(() => {
        if (namedLocks.get(name) === settled) namedLocks.delete(name)
      })
      return done
    },
    notify: async (channel, payload) => {
      await client.query('select pg_notify($1, $2)', [channel, payload])
    },
    // PGlite is in this process: its listening never drops, so there is no reconnect to report.
    listen: async (channel, handler) => {
      const unsubscribe = await client.listen(channel, handler)
      return () => unsubscribe()
    },
    close: () => client.close(),
  }
}
