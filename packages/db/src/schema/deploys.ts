import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'
import { user } from './auth.ts'

export const deploys = pgTable(
  'deploys',
  {
    id: text('id').primaryKey(),
    applicationId: text('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** building | live | failed | superseded */
    status: text('status').notNull(),
    error: text('error'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [index('deploys_application_id_idx').on(table.applicationId)],
)
