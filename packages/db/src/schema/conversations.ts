import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'
import { organization, user } from './auth.ts'

/** A chat: a builder conversation of an application, or an exploration of an organization. */
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    /** Null for an exploration, which has no application yet. */
    applicationId: text('application_id').references(() => applications.id, {
      onDelete: 'cascade',
    }),
    /** builder | exploration */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    activeModel: text('active_model').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
  },
  (table) => [
    index('conversations_application_id_idx').on(table.applicationId, table.updatedAt),
    index('conversations_organization_id_idx').on(table.organizationId, table.kind),
    // The admin's list of every organization's conversations, newest first.
    index('conversations_created_at_idx').on(table.createdAt, table.id),
  ],
)
