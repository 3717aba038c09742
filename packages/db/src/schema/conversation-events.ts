import { bigint, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { conversations } from './conversations.ts'

/**
 * Every stream chunk of a conversation, in order: `seq` starts at 1 and grows by one per chunk
 * (docs/architecture/stream-protocol.md). A listener resumes after the last seq it applied.
 */
export const conversationEvents = pgTable(
  'conversation_events',
  {
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** Null for chunks outside a run (the user message that starts one). */
    runId: text('run_id'),
    chunk: jsonb('chunk').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.conversationId, table.seq] })],
)
