import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import type { Database } from '@sprout/db/database.ts'
import { ERROR_INSTANCES_KEPT } from '@sprout/protocol/api/error-monitoring.ts'
import { sql } from 'drizzle-orm'
import type { ErrorRecord } from './event-record.ts'

type Waiter = { records: ErrorRecord[]; resolve: () => void; reject: (error: Error) => void }

/** -1 while a group holds no more than it keeps, then one more every `pruneEvery` events. */
const trimBucket = (count: number) =>
  count <= ERROR_INSTANCES_KEPT ? -1 : Math.floor((count - ERROR_INSTANCES_KEPT - 1) / pruneEvery)

/** Largest number of events written in one transaction. */
const batchLimit = 1000
/** How long the writer lets envelopes gather before a transaction (a few ms of latency). */
const lingerMs = 4
/** How many occurrences past the kept ones a group may gather before it is trimmed. */
const pruneEvery = 50

/**
 * Stores events before their envelopes are answered, many requests to one transaction (group
 * commit, docs/decisions/017-error-ingest.md): while a transaction runs, the next requests wait
 * and go together in the following one. An answered event is in the database, with its group.
 */
export function createEventWriter(db: Database) {
  const queue: Waiter[] = []
  let running: Promise<void> | undefined
  let stopped = false
  const pruneQueue = new Set<string>()

  const drain = async () => {
    while (queue.length > 0) {
      // PGlite runs queries on this thread: without a pause the next transaction would start
      // with the one or two envelopes parsed so far, and requests still being read wait for it.
      if (!stopped && queue.length < batchLimit) await delay(lingerMs)
      const batch: Waiter[] = []
      let size = 0
      while (queue.length > 0 && (batch.length === 0 || size < batchLimit)) {
        const waiter = queue.shift() as Waiter
        batch.push(waiter)
        size += waiter.records.length
      }
      await writeBatch(batch)
      prune()
    }
  }

  // Old occurrences are removed beside the writes, never before an answer.
  let pruning: Promise<void> | undefined
  const prune = () => {
    if (pruning || pruneQueue.size === 0) return
    const groups = [...pruneQueue]
    pruneQueue.clear()
    pruning = pruneInstances(db, groups)
      .catch((error: Error) => {
        console.error('[errors] pruning old occurrences failed:', error.message)
      })
      .finally(() => {
        pruning = undefined
        prune()
      })
  }

  const writeBatch = async (batch: Waiter[]) => {
    try {
      const crowded = await storeRecords(
        db,
        batch.flatMap((waiter) => waiter.records),
      )
      for (const group of crowded) pruneQueue.add(group)
      for (const waiter of batch) waiter.resolve()
    } catch (error) {
      if (batch.length === 1) return batch[0]?.reject(error as Error)
      // One envelope's failure must not fail the others: each is tried on its own.
      for (const waiter of batch) await writeBatch([waiter])
    }
  }

  const kick = () => {
    if (running) return
    running = drain().finally(() => {
      running = undefined
      if (queue.length > 0) kick()
    })
  }

  return {
    /** Resolves once the records are committed. */
    write: (records: ErrorRecord[]) => {
      if (records.length === 0) return Promise.resolve()
      if (stopped) return Promise.reject(new Error('The error ingest is stopped'))
      return new Promise<void>((resolve, reject) => {
        queue.push({ records, resolve, reject })
        kick()
      })
    },
    /** Writes what is queued; later writes are refused. */
    stop: async () => {
      stopped = true
      while (running || pruning) await (running ?? pruning)
    },
    pending: () => queue.length,
  }
}

/** One transaction: new events only (a replayed event_id counts once), groups, occurrences. */
async function storeRecords(db: Database, input: ErrorRecord[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    const unique = new Map<string, ErrorRecord>()
    for (const record of input) unique.set(`${record.applicationId}/${record.id}`, record)
    const keys = [...unique.values()].map((record) => ({
      application_id: record.applicationId,
      id: record.id,
    }))
    const seen = await tx.execute(sql`
      select e.application_id, e.id from error_instances e
      join jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(application_id text, id text)
        on e.application_id = k.application_id and e.id = k.id`)
    for (const row of rowsOf(seen) as { application_id: string; id: string }[]) {
      unique.delete(`${row.application_id}/${row.id}`)
    }
    const records = [...unique.values()]
    if (records.length === 0) return []
    const groups = new Map<string, GroupDelta>()
    for (const record of records) addToGroup(groups, record)
    const upserted = await tx.execute(sql`
      insert into error_groups as g (id, application_id, fingerprint, error_type,
        representative_message, representative_stack, occurrence_count, first_seen_at,
        last_seen_at, status, source, last_url, last_release)
      select id, application_id, fingerprint, error_type, representative_message,
        representative_stack, occurrence_count, first_seen_at, last_seen_at, 'active', source,
        last_url, last_release
      from jsonb_to_recordset(${JSON.stringify([...groups.values()])}::jsonb) as x(id text,
        application_id text, fingerprint text, error_type text, representative_message text,
        representative_stack jsonb, occurrence_count bigint, first_seen_at timestamptz,
        last_seen_at timestamptz, source text, last_url text, last_release text)
      on conflict (application_id, fingerprint) do update set
        occurrence_count = g.occurrence_count + excluded.occurrence_count,
        first_seen_at = least(g.first_seen_at, excluded.first_seen_at),
        last_seen_at = greatest(g.last_seen_at, excluded.last_seen_at),
        status = case when g.status = 'resolved' then 'active' else g.status end,
        regressed_at = case when g.status = 'resolved' then now() else g.regressed_at end,
        last_url = coalesce(excluded.last_url, g.last_url),
        last_release = coalesce(excluded.last_release, g.last_release)
      returning g.id, g.application_id, g.fingerprint, g.occurrence_count`)
    const groupIds = new Map<string, string>()
    const crowded: string[] = []
    for (const row of rowsOf(upserted) as GroupRow[]) {
      const key = `${row.application_id}/${row.fingerprint}`
      groupIds.set(key, row.id)
      const count = Number(row.occurrence_count)
      const before = count - (groups.get(key)?.occurrence_count ?? 0)
      // A group is trimmed each time it passes another `pruneEvery` events past the kept ones.
      if (trimBucket(count) > trimBucket(before)) crowded.push(row.id)
    }
    const instances = records.map((record) => ({
      application_id: record.applicationId,
      id: record.id,
      group_id: groupIds.get(`${record.applicationId}/${record.fingerprint}`),
      source: record.source,
      occurred_at: record.occurredAt.toISOString(),
      context: record.context,
      session_data: record.sessionData,
      stack: record.stack,
    }))
    await tx.execute(sql`
      insert into error_instances (application_id, id, group_id, source, occurred_at, context,
        session_data, stack)
      select * from jsonb_to_recordset(${JSON.stringify(instances)}::jsonb) as x(
        application_id text, id text, group_id text, source text, occurred_at timestamptz,
        context jsonb, session_data jsonb, stack jsonb)
      on conflict do nothing`)
    return crowded
  })
}

/** Rows of a raw query, on PGlite and node-postgres alike (both answer `{ rows }`). */
const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows

type GroupRow = {
  id: string
  application_id: string
  fingerprint: string
  occurrence_count: string
}

type GroupDelta = {
  id: string
  application_id: string
  fingerprint: string
  error_type: string
  representative_message: string
  representative_stack: string[]
  occurrence_count: number
  first_seen_at: string
  last_seen_at: string
  source: string
  last_url: string | null
  last_release: string | null
}

function addToGroup(groups: Map<string, GroupDelta>, record: ErrorRecord) {
  const key = `${record.applicationId}/${record.fingerprint}`
  const at = record.occurredAt.toISOString()
  const group = groups.get(key)
  if (!group) {
    groups.set(key, {
      id: randomUUID(),
      application_id: record.applicationId,
      fingerprint: record.fingerprint,
      error_type: record.errorType,
      representative_message: record.message,
      representative_stack: record.stack,
      occurrence_count: 1,
      first_seen_at: at,
      last_seen_at: at,
      source: record.source,
      last_url: record.url,
      last_release: record.release,
    })
    return
  }
  group.occurrence_count += 1
  if (at < group.first_seen_at) group.first_seen_at = at
  if (at >= group.last_seen_at) {
    group.last_seen_at = at
    group.last_url = record.url ?? group.last_url
    group.last_release = record.release ?? group.last_release
  }
}

/**
 * Keeps each group's newest `ERROR_INSTANCES_KEPT` occurrences (a group holds at most
 * `pruneEvery` more between two trims; reads never return more than the kept ones).
 */
async function pruneInstances(db: Database, groupIds: string[]) {
  for (const groupId of groupIds) {
    await db.execute(sql`
      delete from error_instances
      where group_id = ${groupId} and (occurred_at, id) < (
        select occurred_at, id from error_instances where group_id = ${groupId}
        order by occurred_at desc, id desc offset ${ERROR_INSTANCES_KEPT - 1} limit 1)`)
  }
}
