import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'
import { user } from './auth.ts'
import { conversations } from './conversations.ts'
import { runs } from './runs.ts'

/** One version of an app: a commit of its workspace (docs/product/versions.md "History"). */
export const appVersions = pgTable(
  'app_versions',
  {
    id: text('id').primaryKey(),
    applicationId: text('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** 1, 2, 3… per application. */
    number: integer('number').notNull(),
    /** run | edit | restore | start */
    kind: text('kind').notNull(),
    commitId: text('commit_id').notNull(),
    title: text('title').notNull(),
    runId: text('run_id').references(() => runs.id, { onDelete: 'set null' }),
    conversationId: text('conversation_id').references(() => conversations.id, {
      onDelete: 'set null',
    }),
    restoredNumber: integer('restored_number'),
    authorId: text('author_id').references(() => user.id, { onDelete: 'set null' }),
    /** VersionFileChange[] */
    files: jsonb('files').notNull(),
    /** The preview database was snapshotted with it (data-snapshots.ts). */
    hasDataSnapshot: boolean('has_data_snapshot').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    uniqueIndex('app_versions_application_number_idx').on(table.applicationId, table.number),
  ],
)

/**
 * What the app's next agent run is told about changes made outside it ('The user restored
 * version N.', files changed by hand); taken, and deleted, when a run starts.
 */
export const appRunNotes = pgTable(
  'app_run_notes',
  {
    id: text('id').primaryKey(),
    applicationId: text('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('app_run_notes_application_id_idx').on(table.applicationId, table.createdAt)],
)

/**
 * Files saved by hand in the Code tab and not yet committed as their 'Edited by' version
 * (docs/product/versions.md "Code"): kept here so that a restart loses none of them.
 */
export const appHandEdits = pgTable(
  'app_hand_edits',
  {
    applicationId: text('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    editorId: text('editor_id').notNull(),
    editorName: text('editor_name').notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.path, table.editorId] })],
)
