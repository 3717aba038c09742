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
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('devboxes_status_idx').on(table.status)],
)
