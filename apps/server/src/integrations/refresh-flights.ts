import type { Database, DatabaseHandle } from '@sprout/db/database.ts'

export type RefreshFlights = ReturnType<typeof createRefreshFlights>

/**
 * One token refresh at a time per connection, since a rotated refresh token is used once:
 * callers in this process share the refresh in flight, and processes take turns through a lock
 * on the database (decision 031). The refresh gets the locked connection to query through.
 */
export function createRefreshFlights(database: DatabaseHandle) {
  const inFlight = new Map<string, Promise<unknown>>()
  return {
    run: <T>(key: string, refresh: (db: Database) => Promise<T>): Promise<T> => {
      const current = inFlight.get(key)
      if (current) return current as Promise<T>
      const started = database
        .withNamedLock(`integration-refresh\n${key}`, refresh)
        .finally(() => inFlight.delete(key))
      inFlight.set(key, started)
      return started
    },
  }
}
