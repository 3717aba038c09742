import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'

/**
 * An application's error ingest credentials (docs/product/error-monitoring.md "DSN"): the
 * DSN's numeric project id (Sentry SDKs require digits) and its public key, rotatable.
 */
export const errorProjects = pgTable('error_projects', {
  applicationId: text('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  projectId: integer('project_id').generatedAlwaysAsIdentity().notNull().unique(),
  /** 32 hex digits. */
  publicKey: text('public_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  rotatedAt: timestamp('rotated_at', { withTimezone: true }),
})
