import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'
import { user } from './auth.ts'

/** Single-use hand-off tokens for a preview or apps origin; only their SHA-256 is stored. */
export const devboxAuthTokens = pgTable('devbox_auth_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' }),
  applicationId: text('application_id')
    .notNull()
    .references(() => applications.id, { onDelete: 'cascade' }),
  /** The host it signs in to: `preview`, or `app` (a private app's deploy, decision 046). */
  host: text('host', { enum: ['preview', 'app'] })
    .default('preview')
    .notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
})
