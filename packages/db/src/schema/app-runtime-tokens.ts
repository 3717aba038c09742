import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'

/**
 * The token an app's servers use at `http://sprout.internal` (SPROUT_APP_TOKEN; decision 019):
 * one per application, only its SHA-256 stored, gone with the application.
 */
export const appRuntimeTokens = pgTable('app_runtime_tokens', {
  applicationId: text('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  /** SHA-256 of the token, hex. */
  tokenHash: text('token_hash').notNull().unique(),
  /** The token sealed with the vault key, so that every instance starts servers with the same one. */
  sealedToken: text('sealed_token'),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
})
