import type { DatabaseHandle } from '@sprout/db/database.ts'
import type pg from 'pg'

/**
 * The session-level advisory lock whose holder is the leader. Migrations take 727274 (single
 * key); named locks use the two-key form, a space of its own.
 */
export const LEADER_LOCK_KEY = 727276

export type LeadershipListener = (leader: boolean) => void

/**
 * Whether this instance runs the singletons that act on shared rows (docs/decisions/032-one-leader.md):
 * stale-run sweeps, taking over evaluations, and for the pool's owner its refill and idle sweeps.
 */
export type Leadership = {
  isLeader: () => boolean
  /** Called with true when this instance becomes leader, false when it stops being one. */
  onLeadershipChange: (listener: LeadershipListener) => () => void
  /** Tries once (so a lone instance leads as soon as this resolves), then every `retryMs`. */
  start: () => Promise<void>
  /** Steps down first, then releases the lock by ending its connection. */
  stop: () => Promise<void>
}

export type LeadershipOptions = {
  /** How often a follower tries the lock and the leader checks its connection; 1 s. */
  retryMs?: number
}

/**
 * One leader among the instances on a database: whoever holds the advisory lock on a connection
 * of its own. A dead process or connection releases it in PostgreSQL, and another instance takes
 * it at its next try. On PGlite, one process by design, the one instance always leads.
 */
export function createLeadership(
  database: DatabaseHandle,
  options: LeadershipOptions = {},
): Leadership {
  const listeners = new Set<LeadershipListener>()
  const onLeadershipChange = (listener: LeadershipListener) => {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }
  const notify = (leader: boolean) => {
    for (const listener of listeners) {
      try {
        listener(leader)
      } catch (error) {
        console.error('[leader] a leadership listener failed:', (error as Error).message)
      }
    }
  }
  const openSession = database.openSession
  if (database.kind === 'pglite' || !openSession) {
    return {
      isLeader: () => true,
      onLeadershipChange,
      start: async () => notify(true),
      stop: async () => undefined,
    }
  }
  return createLockLeadership(openSession, options.retryMs ?? 1_000, onLeadershipChange, notify)
}

function createLockLeadership(
  openSession: () => Promise<pg.Client>,
  retryMs: number,
  onLeadershipChange: Leadership['onLeadershipChange'],
  notify: (leader: boolean) => void,
): Leadership {
  let session: pg.Client | undefined
  let leader = false
  let stopped = false
  let timer: ReturnType<typeof setInterval> | undefined
  let trying: Promise<void> = Promise.resolve()
  // After losing its connection an instance lets the others try first (a few of their tries).
  let waitUntil = 0

  const setLeader = (value: boolean) => {
    if (leader === value) return
    leader = value
    notify(value)
  }

  // The lock went with the connection: stop leading at once, before anyone else can take it.
  const lose = (lost: pg.Client, reason: string) => {
    if (session !== lost) return
    session = undefined
    if (leader) console.error(`[leader] lost the leader's connection (${reason}); stepping down`)
    setLeader(false)
    waitUntil = Date.now() + retryMs * 3
    lost.end().catch(() => undefined)
  }

  /** A query that gives up after `retryMs * 2`, so a silently dead connection counts as lost. */
  const query = async (client: pg.Client, text: string, values: unknown[] = []) => {
    let timeout: ReturnType<typeof setTimeout> | undefined
    try {
      return await Promise.race([
        client.query(text, values),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => reject(new Error('no answer in time')), retryMs * 2)
        }),
      ])
    } finally {
      clearTimeout(timeout)
    }
  }

  const connect = async () => {
    const fresh = await openSession()
    fresh.on('error', (error) => lose(fresh, error.message))
    fresh.on('end', () => lose(fresh, 'connection ended'))
    if (stopped) {
      await fresh.end().catch(() => undefined)
      return undefined
    }
    session = fresh
    return fresh
  }

  const attempt = async () => {
    if (stopped || Date.now() < waitUntil) return
    const client = session ?? (await connect())
    if (!client) return
    try {
      if (leader) {
        await query(client, 'select 1')
        return
      }
      const { rows } = await query(client, 'select pg_try_advisory_lock($1) as locked', [
        LEADER_LOCK_KEY,
      ])
      if (rows[0]?.locked === true && !stopped && session === client) setLeader(true)
    } catch (error) {
      lose(client, (error as Error).message)
    }
  }

  const tick = () => {
    trying = trying
      .then(attempt)
      .catch((error: Error) => console.error('[leader] could not try the lock:', error.message))
    return trying
  }

  return {
    isLeader: () => leader,
    onLeadershipChange,
    start: async () => {
      stopped = false
      timer = setInterval(tick, retryMs)
      timer.unref()
      await tick()
    },
    stop: async () => {
      stopped = true
      clearInterval(timer)
      await trying
      setLeader(false)
      const closing = session
      session = undefined
      await closing?.end().catch(() => undefined)
    },
  }
}
