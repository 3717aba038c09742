import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'

/**
 * Errors of one application with the same fingerprint (docs/product/error-monitoring.md
 * "Grouping"): exact counts and first/last seen; status active | resolved | ignored.
 */
export const errorGroups = pgTable(
  'error_groups',
  {
    id: text('id').primaryKey(),
    applicationId: text('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    errorType: text('error_type').notNull(),
    representativeMessage: text('representative_message').notNull(),
    representativeStack: jsonb('representative_stack').$type<string[]>().notNull(),
    occurrenceCount: bigint('occurrence_count', { mode: 'number' }).notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** active | resolved | ignored */
    status: text('status').notNull().default('active'),
    /** browser | server */
    source: text('source').notNull(),
    lastUrl: text('last_url'),
    lastRelease: text('last_release'),
    /** When a resolved group happened again, and was active again (docs/product/checks.md). */
    regressedAt: timestamp('regressed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('error_groups_application_fingerprint_idx').on(
      table.applicationId,
      table.fingerprint,
    ),
    index('error_groups_application_status_seen_idx').on(
      table.applicationId,
      table.status,
      table.lastSeenAt,
    ),
  ],
)
