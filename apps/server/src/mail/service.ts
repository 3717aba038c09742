import type { Database } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import {
  MAIL_FAILURES_SHOWN,
  type MailFailure,
  type MailOverview,
  mailAlreadySentText,
  mailNotFoundText,
  mailRetryNeedsSmtpText,
} from '@sprout/protocol/api/mail.ts'
import { and, count, desc, eq, isNotNull, ne, or, sql } from 'drizzle-orm'
import { conflict, notFound } from '../http/app-error.ts'
import type { Mailer } from './mailer.ts'

const outbox = schema.mailOutbox

/**
 * What the admin sees of the outbox (docs/product/mail.md "What the admin sees"): the settings,
 * how many messages wait, and the messages the mail server has not taken, newest first.
 */
export async function mailOverview(
  db: Database,
  mailer: Pick<Mailer, 'configured' | 'from'>,
): Promise<MailOverview> {
  const [pending] = await db
    .select({ total: count() })
    .from(outbox)
    .where(eq(outbox.status, 'pending'))
  const rows = await db
    .select()
    .from(outbox)
    .where(
      or(
        eq(outbox.status, 'failed'),
        and(eq(outbox.status, 'pending'), isNotNull(outbox.lastError)),
      ),
    )
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(MAIL_FAILURES_SHOWN)
  const failures = rows.map(
    (row): MailFailure => ({
      id: row.id,
      kind: row.kind,
      recipient: row.recipient,
      subject: row.subject,
      status: row.status === 'failed' ? 'failed' : 'pending',
      attempts: row.attempts,
      lastError: row.lastError ?? '',
      createdAt: row.createdAt.toISOString(),
      lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
      nextAttemptAt: row.status === 'failed' ? null : row.nextAttemptAt.toISOString(),
    }),
  )
  return {
    configured: mailer.configured,
    from: mailer.from,
    pending: pending?.total ?? 0,
    failures,
  }
}

/** Retry: the message is pending again, due now, with its attempts counted afresh. */
export async function retryMail(
  db: Database,
  mailer: Pick<Mailer, 'configured' | 'wake'>,
  id: string,
): Promise<{ id: string; status: 'pending' }> {
  const [row] = await db.select({ status: outbox.status }).from(outbox).where(eq(outbox.id, id))
  if (!row) throw notFound(mailNotFoundText)
  if (row.status === 'sent') throw conflict(mailAlreadySentText)
  if (!mailer.configured) throw conflict(mailRetryNeedsSmtpText)
  const updated = await db
    .update(outbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()` })
    .where(and(eq(outbox.id, id), ne(outbox.status, 'sent')))
    .returning({ id: outbox.id })
  // Sent by a worker between the two statements.
  if (updated.length === 0) throw conflict(mailAlreadySentText)
  mailer.wake()
  return { id, status: 'pending' }
}
