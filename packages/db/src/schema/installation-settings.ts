import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Settings an admin changes from the admin screen (sign-up rules, single sign-on), one row per
 * setting; the environment's value is the default until one is stored (docs/product/admin.md).
 */
export const installationSettings = pgTable('installation_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
})
