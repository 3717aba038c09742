import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'
import { errorGroups } from './error-groups.ts'

/**
 * One occurrence of an error group, with its context; the newest 100 of a group are kept
 * (docs/product/error-monitoring.md "Grouping"). `id` is the event's event_id as a uuid: a
 * replayed event is stored once.
 */
export const errorInstances = pgTable(
  'error_instances',
  {
    applicationId: text('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    groupId: text('group_id')
      .notNull()
      .references(() => errorGroups.id, { onDelete: 'cascade' }),
    /** browser | server */
    source: text('source').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    context: jsonb('context').$type<Record<string, unknown>>().notNull(),
    sessionData: jsonb('session_data').$type<Record<string, unknown>>().notNull(),
    stack: jsonb('stack').$type<string[]>().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.applicationId, table.id] }),
    index('error_instances_group_occurred_idx').on(table.groupId, table.occurredAt),
  ],
)
