import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { conversations } from './conversations.ts'

/** A message queued while a run is active; the run takes it at its next step boundary. */
export const stagedMessages = pgTable(
  'staged_messages',
  {
    id: text('id').primaryKey(),
    /** Arrival order: staged messages are taken in this order. */
    sequence: bigint('sequence', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** The run it was staged during. */
    runId: text('run_id'),
    text: text('text').notNull(),
    /** The sending tab's id, echoed in data-staged and data-user-message. */
    clientId: text('client_id'),
    /** pending | sent | unsent */
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('staged_messages_conversation_id_idx').on(table.conversationId, table.status)],
)
