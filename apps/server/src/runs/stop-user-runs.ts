import type { Database } from '@sprout/db/database.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import { and, eq } from 'drizzle-orm'
import type { ConversationRuntime } from './conversation-runtime.ts'

/**
 * When a user is banned: interrupts the active runs of the conversations they started (builder
 * and exploration; a run records no user of its own) and waits (bounded) for those of this
 * process to close (docs/product/admin.md "Users tab"). Resolves to how many were stopped.
 */
export async function stopRunsOfUser(
  context: { db: Database; runtime: ConversationRuntime },
  userId: string,
): Promise<number> {
  const { db, runtime } = context
  const rows = await db
    .select({ conversationId: runs.conversationId })
    .from(runs)
    .innerJoin(conversations, eq(conversations.id, runs.conversationId))
    .where(and(eq(conversations.createdBy, userId), eq(runs.status, 'running')))
  const stopped = await Promise.all(
    rows.map(async ({ conversationId }) => {
      const interrupted = await runtime.runs.interrupt(conversationId)
      if (interrupted) await runtime.runs.settleInterrupted(conversationId)
      return interrupted
    }),
  )
  return stopped.filter(Boolean).length
}
