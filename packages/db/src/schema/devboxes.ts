import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'

/** A dev box assigned to an application; the pool's spare boxes are the pool's own business. */
export const devboxes = pgTable(
  'devboxes',
  {
    id: text('id').primaryKey(),
    applicationId: text('application_id')
      .notNull()
      .unique()
      .references(() => applications.id, { onDelete: 'cascade' }),
    packType: text('pack_type').notNull(),
    /** provisioning | ready | failed */
    status: text('status').notNull(),
    error: text('error'),
    /** When the box first became ready: null for one that never got built (provisioned anew). */
    builtAt: timestamp('built_at', { withTimezone: true }),
    /** Its last use (a request, a run), written at most every few seconds, for idle stops. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('devboxes_status_idx').on(table.status)],
)
