import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'

/**
 * Mail waiting to be sent, and what became of it (docs/product/mail.md). A message is written
 * here first and sent by the worker, so a mail server that is down or a restart loses nothing.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    /**
     * What the message is for: password-reset, email-verification, invitation, email-change, or
     * app-mail (an app's own message relayed through sprout.internal, decision 046).
     */
    kind: text('kind').notNull(),
    /** The app an app-mail message came from (its rate limit counts these). */
    applicationId: text('application_id').references(() => applications.id, {
      onDelete: 'cascade',
    }),
    /** The sender's display name before MAIL_FROM's address: the app's name for app-mail. */
    fromName: text('from_name'),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /** pending (not yet sent, or to be retried), sent, or failed (retries exhausted). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the worker may take it next: due, after a backoff, or a sending process's lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow().notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('mail_outbox_due_idx').on(table.status, table.nextAttemptAt),
    index('mail_outbox_application_idx').on(table.applicationId, table.createdAt),
  ],
)
