import type { DatabaseHandle } from '@sprout/db/database.ts'

/** Lease times (docs/decisions/033-box-leases-and-relay.md); tests shorten them. */
export type BoxLeaseTimes = {
  /** A lease lasts this long after its last renewal; 30 s. */
  leaseMs: number
  /** Every own lease is renewed this often; 5 s. */
  renewMs: number
  /** A lease not confirmed for this long is given up and its box stopped; 20 s, under leaseMs. */
  fenceMs: number
}

// 20 s: a dead owner's preview is back within 30 s (its lease expires, another opens the box);
// fenced after 13 s unconfirmed, 7 s before another may start it (decision 033, amended).
export const defaultLeaseTimes: BoxLeaseTimes = { leaseMs: 20_000, renewMs: 3_000, fenceMs: 13_000 }

export type BoxLeases = {
  /** Whether this instance holds the application's lease, confirmed within `fenceMs`. */
  holds: (applicationId: string) => boolean
  /**
   * Takes the lease when it is free, expired or already this instance's: true when held after.
   * One statement, so two instances never both win. Undefined: no such application.
   */
  take: (applicationId: string) => Promise<boolean | undefined>
  /** The live owner's internal URL, or undefined when the lease is free or its owner gone. */
  ownerOf: (applicationId: string) => Promise<string | undefined>
  /** Called once a held lease is lost (not renewed for `fenceMs`): its box must stop. */
  onLost: (listener: (applicationId: string) => Promise<void>) => void
  start: () => void
  /** Stops renewing; `release` then deletes the leases so another instance takes them at once. */
  stop: () => void
  release: () => Promise<void>
  /** Deletes one lease whose box was just closed here: another instance may take it at once. */
  releaseOne: (applicationId: string) => Promise<void>
}

const foreignKeyViolation = '23503'

/** The leases of one instance: taken on demand, renewed all at once, fenced when unconfirmed. */
export function createBoxLeases(
  database: DatabaseHandle,
  instanceId: string,
  times: BoxLeaseTimes = defaultLeaseTimes,
): BoxLeases {
  // Each held lease, with when its last confirmation was asked (a local clock, before the query).
  const held = new Map<string, number>()
  const lostListeners: ((applicationId: string) => Promise<void>)[] = []
  const leaseSeconds = times.leaseMs / 1000
  let timers: ReturnType<typeof setInterval>[] = []

  // A lease given up is deleted when the database answers, so a renewal already on its way when
  // it was fenced does not keep it from the next owner.
  const deleteLease = (applicationId: string) =>
    database.execute('delete from box_leases where application_id = $1 and instance_id = $2', [
      applicationId,
      instanceId,
    ])
  const giveUp = (applicationId: string) => void deleteLease(applicationId).catch(() => undefined)

  const lose = async (applicationId: string) => {
    if (!held.delete(applicationId)) return
    giveUp(applicationId)
    for (const listener of lostListeners) {
      await listener(applicationId).catch((error: Error) =>
        console.error('[cluster] stopping a box whose lease was lost failed:', error.message),
      )
    }
  }

  const renew = async () => {
    if (held.size === 0) return
    const asked = Date.now()
    const { rows } = await database.execute(
      `update box_leases set expires_at = now() + make_interval(secs => $2)
       where instance_id = $1 returning application_id`,
      [instanceId, leaseSeconds],
    )
    const renewed = new Set(rows.map((row) => String(row.application_id)))
    for (const applicationId of renewed) if (!held.has(applicationId)) giveUp(applicationId)
    for (const applicationId of [...held.keys()]) {
      if (renewed.has(applicationId)) held.set(applicationId, asked)
      // Taken by another after it expired, or deleted with its application.
      else await lose(applicationId)
    }
  }

  // Fencing: a lease this instance could not confirm for fenceMs is stopped here before it
  // expires (leaseMs) and another instance may take it.
  const fence = async () => {
    const oldest = Date.now() - times.fenceMs
    for (const [applicationId, confirmed] of [...held]) {
      if (confirmed < oldest) await lose(applicationId)
    }
  }

  return {
    holds: (applicationId) => {
      const confirmed = held.get(applicationId)
      return confirmed !== undefined && confirmed >= Date.now() - times.fenceMs
    },
    take: async (applicationId) => {
      const asked = Date.now()
      try {
        const { rows } = await database.execute(
          `insert into box_leases (application_id, instance_id, expires_at)
           values ($1, $2, now() + make_interval(secs => $3))
           on conflict (application_id) do update
             set instance_id = excluded.instance_id, expires_at = excluded.expires_at
             where box_leases.expires_at < now() or box_leases.instance_id = excluded.instance_id
           returning instance_id`,
          [applicationId, instanceId, leaseSeconds],
        )
        if (rows.length === 0) return false
        held.set(applicationId, asked)
        return true
      } catch (error) {
        if ((error as { code?: string }).code === foreignKeyViolation) return undefined
        throw error
      }
    },
    ownerOf: async (applicationId) => {
      const { rows } = await database.execute(
        `select instances.internal_url from box_leases leases
         join sprout_instances instances on instances.id = leases.instance_id
         where leases.application_id = $1 and leases.expires_at >= now()`,
        [applicationId],
      )
      return rows[0] ? String(rows[0].internal_url) : undefined
    },
    onLost: (listener) => {
      lostListeners.push(listener)
    },
    start: () => {
      const report = (what: string) => (error: Error) =>
        console.error(`[cluster] ${what} failed:`, error.message)
      timers = [
        setInterval(() => void renew().catch(report('renewing box leases')), times.renewMs),
        setInterval(
          () => void fence().catch(report('fencing box leases')),
          Math.min(1_000, times.fenceMs / 4),
        ),
      ]
      for (const timer of timers) timer.unref()
    },
    stop: () => {
      for (const timer of timers) clearInterval(timer)
      timers = []
    },
    release: async () => {
      held.clear()
      await database.execute('delete from box_leases where instance_id = $1', [instanceId])
    },
    releaseOne: async (applicationId) => {
      held.delete(applicationId)
      await deleteLease(applicationId)
    },
  }
}
