import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'

/**
 * An application's secrets (docs/product/vault.md). Only ciphertext is stored: AES-256-GCM with
 * the application id and key as associated data, under the master key `keyId` names.
 */
export const vaultSecrets = pgTable(
  'vault_secrets',
  {
    applicationId: text('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** base64: the ciphertext followed by the 16-byte authentication tag. */
    ciphertext: text('ciphertext').notNull(),
    /** base64 of the 96-bit IV, fresh for every value. */
    iv: text('iv').notNull(),
    /** Which master key encrypted it (a hash prefix of the key, never the key). */
    keyId: text('key_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.key] })],
)
