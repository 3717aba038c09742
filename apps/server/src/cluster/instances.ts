import os from 'node:os'
import type { DatabaseHandle } from '@sprout/db/database.ts'

/** How often an instance beats its row (docs/decisions/033-box-leases-and-relay.md). */
export const instanceBeatMs = 5_000

export type ClusterInstance = {
  id: string
  internalUrl: string
  /** Ends the beats and deletes the row (a clean stop). */
  stop: () => Promise<void>
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1'])

/**
 * Where the other instances reach this one: its first non-internal IPv4 address, or 127.0.0.1
 * when it listens on loopback only (instances on one machine, tests).
 */
export function internalUrlOf(host: string | undefined, port: number): string {
  if (host && loopbackHosts.has(host)) return `http://127.0.0.1:${port}`
  if (host && host !== '0.0.0.0' && host !== '::') {
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  }
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)
  return `http://${external?.address ?? '127.0.0.1'}:${port}`
}

/** Records this instance in `sprout_instances` and beats its row every 5 s until `stop`. */
export async function registerInstance(
  database: DatabaseHandle,
  id: string,
  internalUrl: string,
): Promise<ClusterInstance> {
  await database.execute(
    'insert into sprout_instances (id, internal_url, started_at, heartbeat_at) values ($1, $2, now(), now())',
    [id, internalUrl],
  )
  const timer = setInterval(() => {
    database
      .execute('update sprout_instances set heartbeat_at = now() where id = $1', [id])
      .catch((error: Error) => console.error('[cluster] instance beat failed:', error.message))
  }, instanceBeatMs)
  timer.unref()
  return {
    id,
    internalUrl,
    stop: async () => {
      clearInterval(timer)
      await database
        .execute('delete from sprout_instances where id = $1', [id])
        .catch(() => undefined)
    },
  }
}
