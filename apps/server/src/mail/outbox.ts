import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import { and, eq, gte, sql } from 'drizzle-orm'

/**
 * The outbox's rows as the worker sees them (docs/product/mail.md "Outbox"). A message is
 * pending until sent; the worker claims a due one by moving its next attempt to a lease, so
 * another process on the same database skips it, and a process that dies mid-send leaves it to
 * be taken again once the lease is over.
 */
export type ClaimedMail = {
  id: string
  recipient: string
  subject: string
  textBody: string
  htmlBody: string
  attempts: number
  /** The display name before MAIL_FROM's address (an app's name for its own mail). */
  fromName: string | null
}

const outbox = schema.mailOutbox

export async function insertMail(
  db: Database,
  mail: {
    kind: string
    recipient: string
    subject: string
    text: string
    html: string
    applicationId?: string
    fromName?: string
  },
) {
  await db.insert(outbox).values({
    id: randomUUID(),
    kind: mail.kind,
    applicationId: mail.applicationId,
    fromName: mail.fromName,
    recipient: mail.recipient,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
  })
}

type ClaimedRow = {
  id: string
  recipient: string
  subject: string
  text_body: string
  html_body: string
  attempts: number
  from_name: string | null
}

/** The oldest due message, taken for `leaseMs` (nobody else takes it meanwhile), or undefined. */
export async function claimDueMail(
  db: Database,
  leaseMs: number,
): Promise<ClaimedMail | undefined> {
  const result = await db.execute(sql`
    update mail_outbox
    set next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), last_attempt_at = now()
    where id = (
      select id from mail_outbox
      where status = 'pending' and next_attempt_at <= now()
      order by next_attempt_at, created_at limit 1 for update skip locked)
    returning id, recipient, subject, text_body, html_body, attempts, from_name`)
  const row = (result as unknown as { rows: ClaimedRow[] }).rows[0]
  if (!row) return undefined
  return {
    id: row.id,
    recipient: row.recipient,
    subject: row.subject,
    textBody: row.text_body,
    htmlBody: row.html_body,
    attempts: Number(row.attempts),
    fromName: row.from_name,
  }
}

/** How many messages an app has had relayed since `since` (its rate limit, decision 046). */
export async function countAppMailSince(db: Database, applicationId: string, since: Date) {
  const rows = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(outbox)
    .where(and(eq(outbox.applicationId, applicationId), gte(outbox.createdAt, since)))
  return Number(rows[0]?.count ?? 0)
}

/** Sent: the bodies, which hold single-use links, are not kept. */
export async function markMailSent(db: Database, id: string) {
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: new Date(), lastError: null, textBody: '', htmlBody: '' })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'pending')))
}

/** A failed attempt: tried again after `retryInMs`, or, when undefined, failed for good. */
export async function recordMailFailure(
  db: Database,
  id: string,
  failure: { error: string; retryInMs: number | undefined },
) {
  const { error, retryInMs } = failure
  await db
    .update(outbox)
    .set({
      attempts: sql`${outbox.attempts} + 1`,
      lastError: error,
      ...(retryInMs === undefined
        ? { status: 'failed' }
        : { nextAttemptAt: sql`now() + make_interval(secs => ${retryInMs / 1000})` }),
    })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'pending')))
}

/** A send cut short by a stop: due again at once, and the attempt is not counted. */
export async function releaseMail(db: Database, id: string) {
  await db
    .update(outbox)
    .set({ nextAttemptAt: sql`now()` })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'pending')))
}

/** Milliseconds until the next pending message is due (0 when one is), or undefined for none. */
export async function millisecondsUntilDue(db: Database): Promise<number | undefined> {
  const result = await db.execute(sql`
    select extract(epoch from (min(next_attempt_at) - now())) * 1000 as wait
    from mail_outbox where status = 'pending'`)
  const wait = (result as unknown as { rows: { wait: string | number | null }[] }).rows[0]?.wait
  if (wait === null || wait === undefined) return undefined
  return Math.max(0, Math.ceil(Number(wait)))
}
