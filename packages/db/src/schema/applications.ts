import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organization, user } from './auth.ts'

export const applications = pgTable(
  'applications',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The host label of its preview and deploy origins. */
    slug: text('slug').notNull().unique(),
    initialPrompt: text('initial_prompt').notNull(),
    model: text('model').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('applications_organization_id_idx').on(table.organizationId)],
)
