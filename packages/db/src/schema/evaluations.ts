import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { user } from './auth.ts'
import { conversations } from './conversations.ts'

/**
 * A conversation evaluation (docs/product/admin.md "Conversation Evaluations tab"): a judge model
 * reads each conversation with a prompt. Status pending | in_progress | completed | failed.
 */
export const evaluations = pgTable('evaluations', {
  id: text('id').primaryKey(),
  status: text('status').notNull(),
  /** Null in custom mode. */
  promptTemplate: text('prompt_template'),
  customPrompt: text('custom_prompt'),
  concurrentLimit: integer('concurrent_limit').notNull(),
  /** The judge's model id; `demo` is the offline evaluator. */
  model: text('model').notNull(),
  createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
})

/** One conversation of an evaluation; status pending | in_progress | complete | failed. */
export const evaluationItems = pgTable(
  'evaluation_items',
  {
    id: text('id').primaryKey(),
    evaluationId: text('evaluation_id')
      .notNull()
      .references(() => evaluations.id, { onDelete: 'cascade' }),
    /** Its position in the evaluation (the order the admin listed). */
    position: integer('position').notNull(),
    conversationId: text('conversation_id').references(() => conversations.id, {
      onDelete: 'set null',
    }),
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    /**
     * The server instance judging it while in_progress, and when that instance last said so: an
     * item whose claimer stopped beating goes back to pending (docs/decisions/032-one-leader.md).
     */
    claimedBy: text('claimed_by'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    processingTimeMs: integer('processing_time_ms'),
    /** Markdown. */
    summary: text('summary'),
    /** The transcript's figures and, with a model, its answer. */
    result: jsonb('result'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
  },
  (table) => [index('evaluation_items_evaluation_id_idx').on(table.evaluationId, table.position)],
)
