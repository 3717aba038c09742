import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
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
    /**
     * Who may open its deploy (docs/product/deploys.md "Who may open a deploy"): `public`,
     * `organization` or `people`; rows from before visibility existed stay public.
     */
    visibility: text('visibility', { enum: ['public', 'organization', 'people'] })
      .default('public')
      .notNull(),
    /** With `people`: the email addresses, lower-cased, that may open it. */
    allowedEmails: jsonb('allowed_emails').$type<string[]>().default([]).notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('applications_organization_id_idx').on(table.organizationId)],
)
