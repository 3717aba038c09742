import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'
import { organization } from './auth.ts'

/**
 * A failing acceptance test's page, taken by the check (docs/product/checks.md "Acceptance
 * tests"): shown in the Checks block, handed to the repair turn. Its bytes are a file named by
 * its id beside the chat images (docs/decisions/043-chat-images.md); it goes with its application.
 */
export const checkScreenshots = pgTable(
  'check_screenshots',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    applicationId: text('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    mediaType: text('media_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('check_screenshots_application_id_idx').on(table.applicationId, table.createdAt),
  ],
)
