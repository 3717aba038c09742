import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'

/**
 * Where 'Push to Git' pushes an application (docs/product/versions.md "Push to Git"). The token
 * is sealed like a vault value (AES-256-GCM, the application id and `git-remote-token` as
 * associated data); it is kept apart from the vault so it never reaches the app's processes.
 */
export const gitRemotes = pgTable('git_remotes', {
  applicationId: text('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  branch: text('branch').notNull(),
  /** base64: the ciphertext followed by its tag; null when no token is stored. */
  tokenCiphertext: text('token_ciphertext'),
  tokenIv: text('token_iv'),
  /** Which master key sealed the token. */
  tokenKeyId: text('token_key_id'),
  /** An integration whose connection's access token pushes instead (e.g. `github`). */
  integration: text('integration'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
})
