import type { Database } from '@sprout/db/database.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import type { Conversation, SendMessageResponse } from '@sprout/protocol/api/conversations.ts'
import { eq } from 'drizzle-orm'
import type { OrganizationContext } from '../app-env.ts'
import type { ApplicationRecord } from '../applications/service.ts'
import { badRequest } from '../errors/app-error.ts'
import { requireRunnableModel } from '../models/service.ts'
import {
  type ConversationRecord,
  type ConversationScope,
  createConversationRecord,
  findConversationRecord,
  listConversationRecords,
  loadHistory,
  presentConversation,
  titleFromMessage,
} from './conversation-records.ts'
import type { ConversationRuntime } from './conversation-runtime.ts'
import {
  cancelStagedMessage as cancelStaged,
  stageMessage as stageWithRun,
} from './staged-messages.ts'

/** What every chat service function works with: the caller, their organization and the runtime. */
export type ChatContext = {
  db: Database
  organization: OrganizationContext
  userId: string
  runtime: ConversationRuntime
}

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
 * Sends a user message: into the given conversation, or a new one titled from the message; it
 * starts a run (409 while one is active: the client stages instead).
 */
export async function sendMessage(
  context: ChatContext,
  scope: ConversationScope,
  input: {
    message: string
    model: string
    conversationId: string | undefined
    clientId: string | undefined
    appName?: string
  },
): Promise<{ conversation: ConversationRecord; runId: string }> {
  requireRunnableModel(context.runtime.config, input.model)
  const conversation = input.conversationId
    ? await findConversationRecord(context.db, scope, input.conversationId)
    : await createConversationRecord(context.db, scope, {
        title: titleFromMessage(input.message),
        model: input.model,
        createdBy: context.userId,
      })
  return context.runtime.runs.startRun({
    conversation,
    model: input.model,
    appName: input.appName,
    userMessage: { text: input.message, clientId: input.clientId },
  })
}

export function presentSentMessage(
  conversation: ConversationRecord,
  runId: string,
): SendMessageResponse {
  return { ...presentConversation(conversation), conversation_id: conversation.id, run_id: runId }
}

/** Queues a message for the active run; 'unsent' when there is none or it ends first. */
export async function stageMessage(
  context: ChatContext,
  scope: ConversationScope,
  input: { conversationId: string; message: string; clientId: string | undefined },
): Promise<'sent' | 'unsent'> {
  const conversation = await findConversationRecord(context.db, scope, input.conversationId)
  const { runtime } = context
  return stageWithRun(
    {
      db: context.db,
      store: runtime.store,
      hub: runtime.hub,
      timeoutMs: runtime.settings.stageTimeoutMs,
    },
    conversation.id,
    { text: input.message, clientId: input.clientId },
  )
}

export async function cancelStagedMessage(
  context: ChatContext,
  scope: ConversationScope,
  input: { conversationId: string; clientId: string },
): Promise<'sent' | 'unsent'> {
  const conversation = await findConversationRecord(context.db, scope, input.conversationId)
  const status = await cancelStaged(
    { db: context.db, store: context.runtime.store },
    conversation.id,
    input.clientId,
  )
  // Nothing queued under that id: nothing will be sent either.
  return status ?? 'unsent'
}

export async function interruptConversation(
  context: ChatContext,
  scope: ConversationScope,
  conversationId: string,
): Promise<boolean> {
  const conversation = await findConversationRecord(context.db, scope, conversationId)
  return context.runtime.runs.interrupt(conversation.id)
}

/** Retries after an error: a new run over the stored history, with the last model by default. */
export async function continueConversation(
  context: ChatContext,
  scope: ConversationScope,
  input: { conversationId: string; model: string | undefined; appName?: string },
): Promise<{ conversation: ConversationRecord; runId: string }> {
  const conversation = await findConversationRecord(context.db, scope, input.conversationId)
  const history = await loadHistory(context.db, conversation.id)
  if (history.length === 0) throw badRequest('There is nothing to continue yet: send a message.')
  const { runId } = await context.runtime.runs.startRun({
    conversation,
    model: input.model ?? conversation.activeModel,
    appName: input.appName,
  })
  return { conversation, runId }
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
