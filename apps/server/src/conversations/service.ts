import { conversations } from '@sprout/db/schema/conversations.ts'
import type { Conversation } from '@sprout/protocol/api/conversations.ts'
import { eq } from 'drizzle-orm'
import type { ApplicationRecord } from '../applications/service.ts'
import {
  type ChatContext,
  type ConversationScope,
  listConversationRecords,
  presentConversation,
} from '../runs/service.ts'

/** Builder conversations belong to an application of the caller's organization. */
export const builderScope = (application: ApplicationRecord): ConversationScope => ({
  organizationId: application.organizationId,
  kind: 'builder',
  applicationId: application.id,
})

export async function listConversations(
  context: ChatContext,
  application: ApplicationRecord,
): Promise<Conversation[]> {
  const records = await listConversationRecords(context.db, application.id)
  return records.map(presentConversation)
}

/**
 * Before an application is deleted: interrupts the runs of its conversations and waits (bounded)
 * for them to close, so no run keeps working in a box that is about to be destroyed.
 */
export async function stopApplicationRuns(
  context: Pick<ChatContext, 'db' | 'runtime'>,
  applicationId: string,
): Promise<void> {
  const rows = await context.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.applicationId, applicationId))
  await Promise.all(
    rows.map(async (row) => {
      if (await context.runtime.runs.interrupt(row.id)) {
        await context.runtime.runs.settleInterrupted(row.id)
      }
    }),
  )
}
