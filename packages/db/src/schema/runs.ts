import { sql } from 'drizzle-orm'
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { conversations } from './conversations.ts'

/** One agent run of a conversation; at most one is `running` per conversation. */
export const runs = pgTable(
  'runs',
  {
    id: text('id').primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** running | finished | failed | interrupted */
    status: text('status').notNull(),
    model: text('model').notNull(),
    /** The server process executing it; another process may take over once its heartbeat is stale. */
    ownerInstance: text('owner_instance').notNull(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).defaultNow().notNull(),
    error: text('error'),
    /** A repair turn: the run whose check it repairs (docs/product/checks.md "One repair"). */
    repairOf: text('repair_of'),
    startedAt: timestamp('started_at', { withTimezone: true }).defaultNow().notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('runs_one_running_per_conversation_idx')
      .on(table.conversationId)
      .where(sql`${table.status} = 'running'`),
    index('runs_conversation_id_idx').on(table.conversationId, table.startedAt),
    index('runs_running_idx').on(table.heartbeatAt).where(sql`${table.status} = 'running'`),
  ],
)
