import type { Database } from '@sprout/db/database.ts'
import { evaluationItems, evaluations } from '@sprout/db/schema/evaluations.ts'
import { and, eq, inArray, sql } from 'drizzle-orm'

// The rows are the queue (docs/decisions/020-evaluations.md); an item in progress names the
// instance judging it, which beats it, and the leader takes back the items of one that stopped
// (docs/decisions/032-one-leader.md).

export type ClaimedItem = { id: string; conversationId: string | null }

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows

/**
 * The next pending item, taken atomically, while fewer than `concurrent_limit` of the
 * evaluation's items are in progress on any instance. The evaluation's row is locked first, so
 * two instances' workers see each other's claims and never judge more than the limit at once.
 */
export async function claimItem(
  db: Database,
  evaluationId: string,
  instanceId: string,
): Promise<ClaimedItem | undefined> {
  return db.transaction(async (transaction) => {
    const [evaluation] = rowsOf<{ concurrent_limit: number }>(
      await transaction.execute(sql`
        select concurrent_limit from evaluations
        where id = ${evaluationId} and status = 'in_progress' for update`),
    )
    if (!evaluation) return undefined
    // A statement of its own: it sees the claims committed while this one waited for the lock.
    const [row] = rowsOf<{ id: string; conversation_id: string | null }>(
      await transaction.execute(sql`
        update evaluation_items set status = 'in_progress', started_at = now(),
          attempts = attempts + 1, claimed_by = ${instanceId}, heartbeat_at = now()
        where id = (
          select id from evaluation_items
          where evaluation_id = ${evaluationId} and status = 'pending'
          order by position limit 1 for update skip locked)
          and (select count(*) from evaluation_items
               where evaluation_id = ${evaluationId} and status = 'in_progress')
              < ${evaluation.concurrent_limit}
        returning id, conversation_id`),
    )
    return row ? { id: row.id, conversationId: row.conversation_id } : undefined
  })
}

/** Writes the verdict, unless the item was taken back from this instance meanwhile. */
export async function finishItem(
  db: Database,
  item: { id: string; instanceId: string; startedAt: number },
  outcome: { summary: string; result: Record<string, unknown> } | { error: string },
) {
  await db
    .update(evaluationItems)
    .set({
      processingTimeMs: Math.round(performance.now() - item.startedAt),
      ...('error' in outcome
        ? { status: 'failed', error: outcome.error }
        : { status: 'complete', summary: outcome.summary, result: outcome.result, error: null }),
    })
    .where(
      and(
        eq(evaluationItems.id, item.id),
        eq(evaluationItems.status, 'in_progress'),
        eq(evaluationItems.claimedBy, item.instanceId),
      ),
    )
}

/** Completed once no item is pending or in progress; failed when no item completed. */
export async function completeEvaluation(db: Database, evaluationId: string) {
  await db.execute(sql`
    update evaluations set
      status = case when exists (
        select 1 from evaluation_items where evaluation_id = ${evaluationId} and status = 'complete'
      ) then 'completed' else 'failed' end,
      completed_at = now()
    where id = ${evaluationId} and status = 'in_progress'
      and not exists (
        select 1 from evaluation_items
        where evaluation_id = ${evaluationId} and status in ('pending', 'in_progress'))`)
}

/** Marks this instance's items alive; returns the ids it still holds. */
export async function beatItems(db: Database, instanceId: string, itemIds: string[]) {
  if (itemIds.length === 0) return new Set<string>()
  const held = await db
    .update(evaluationItems)
    .set({ heartbeatAt: sql`now()` })
    .where(
      and(
        inArray(evaluationItems.id, itemIds),
        eq(evaluationItems.status, 'in_progress'),
        eq(evaluationItems.claimedBy, instanceId),
      ),
    )
    .returning({ id: evaluationItems.id })
  return new Set(held.map((row) => row.id))
}

const backToPending = { status: 'pending', startedAt: null, claimedBy: null, heartbeatAt: null }

/** A clean stop: this instance's items in progress go back to pending at once. */
export async function releaseItems(db: Database, instanceId: string) {
  await db
    .update(evaluationItems)
    .set(backToPending)
    .where(
      and(eq(evaluationItems.status, 'in_progress'), eq(evaluationItems.claimedBy, instanceId)),
    )
}

/**
 * The leader's sweep: items in progress whose claimer has not beaten them for `staleAfterMs` go
 * back to pending; with `undefined`, every other instance's (PGlite: one process, so those
 * belonged to a dead one). Rows from before heartbeats have none and count as stale.
 */
export async function takeBackStaleItems(
  db: Database,
  instanceId: string,
  staleAfterMs: number | undefined,
) {
  const staleBefore =
    staleAfterMs === undefined
      ? sql`now()`
      : sql`now() - make_interval(secs => ${staleAfterMs / 1000})`
  await db.execute(sql`
    update evaluation_items set status = 'pending', started_at = null, claimed_by = null,
      heartbeat_at = null
    where status = 'in_progress' and claimed_by is distinct from ${instanceId}
      and (heartbeat_at is null or heartbeat_at <= ${staleBefore})`)
}

/** Evaluations in progress with an item to claim, or none left to finish (to complete them). */
export async function evaluationsToRun(db: Database) {
  return db
    .select()
    .from(evaluations)
    .where(
      and(
        eq(evaluations.status, 'in_progress'),
        sql`(exists (select 1 from evaluation_items
               where evaluation_id = ${evaluations.id} and status = 'pending')
             or not exists (select 1 from evaluation_items
               where evaluation_id = ${evaluations.id} and status = 'in_progress'))`,
      ),
    )
}
