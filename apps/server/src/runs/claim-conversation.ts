import { conversations } from '@sprout/db/schema/conversations.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import { inArray, sql } from 'drizzle-orm'
import { conflict, notFound } from '../http/app-error.ts'
import type { ConversationRecord } from './conversation-records.ts'
import type { RunManagerState } from './run-manager-state.ts'

const isUniqueViolation = (error: unknown): boolean => {
  const fields = error as { code?: unknown; cause?: { code?: unknown } }
  return fields.code === '23505' || fields.cause?.code === '23505'
}

/**
 * Claims the conversation and touches its row in one statement (docs/architecture/agent-loop.md
 * "Starting"): a refused claim touches nothing, and no update waits before the first token.
 */
export async function claimConversation(
  state: RunManagerState,
  claim: {
    conversationId: string
    runId: string
    model: string
    withUserMessage: boolean
    repairOf: string | null
  },
): Promise<ConversationRecord> {
  const db = state.database.db
  for (let attempt = 0; ; attempt++) {
    try {
      const claimed = db.$with('claimed').as(
        db
          .insert(runs)
          .values({
            id: claim.runId,
            conversationId: claim.conversationId,
            status: 'running',
            model: claim.model,
            ownerInstance: state.instanceId,
            repairOf: claim.repairOf,
          })
          .returning({ conversationId: runs.conversationId }),
      )
      const [record] = await db
        .with(claimed)
        .update(conversations)
        .set({
          activeModel: claim.model,
          updatedAt: sql`now()`,
          ...(claim.withUserMessage ? { lastMessageAt: sql`now()` } : {}),
        })
        .where(inArray(conversations.id, db.select({ id: claimed.conversationId }).from(claimed)))
        .returning()
      if (!record) throw notFound('Conversation not found')
      return record
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      // A run of this process that is interrupted or just closing: wait for it rather than
      // refuse, so a retry or a new message right after Escape starts a new run.
      const current = state.active.get(claim.conversationId)
      if (attempt === 0 && (current?.closing || current?.controller.signal.aborted)) {
        await current.closed
        continue
      }
      throw conflict(
        'The agent is already working in this conversation. Stage the message (POST …/stage-message) or interrupt the run first.',
      )
    }
  }
}
