import { randomBytes } from 'node:crypto'
import { type DatabaseHandle, openDatabase } from '@sprout/db/database.ts'

/**
 * Another instance's connections to a suite's PostgreSQL database: a pool and a LISTEN connection
 * of its own, named so that a test can find that listener and cut it (pg_terminate_backend), as
 * a network failure or a database restart would.
 */
export async function openOtherInstanceDatabase(
  database: DatabaseHandle,
  options: { listenerRetryMs?: number } = {},
) {
  const baseUrl = process.env.TEST_DATABASE_URL
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set')
  const { rows } = await database.execute('select current_database() as name')
  const url = new URL(baseUrl)
  url.pathname = `/${String(rows[0]?.name)}`
  const applicationName = `sprout-test-${randomBytes(4).toString('hex')}`
  const other = await openDatabase({
    kind: 'postgres',
    url: url.toString(),
    poolSize: 5,
    applicationName,
    listenerRetryMs: options.listenerRetryMs,
  })
  const listenerName = `${applicationName} listener`
  /** The listener's backend process ids (one while it is connected). */
  const listenerPids = async () => {
    const found = await database.execute(
      'select pid from pg_stat_activity where application_name = $1',
      [listenerName],
    )
    return found.rows.map((row) => Number(row.pid))
  }
  return {
    database: other,
    listenerPids,
    /** Ends the listener's backend and waits until it is gone; returns its pid. */
    cutListener: async () => {
      const [pid] = await listenerPids()
      if (pid === undefined) throw new Error('the other instance has no listener connection')
      const ended = await database.execute('select pg_terminate_backend($1, 5000) as ended', [pid])
      if (ended.rows[0]?.ended !== true) throw new Error(`backend ${pid} did not end`)
      return pid
    },
  }
}
