import type { Database } from '@sprout/db/database.ts'
import type { SendMessageResponse } from '@sprout/protocol/api/conversations.ts'
import type { PreviewSelection } from '@sprout/protocol/api/preview-selections.ts'
import type { Context } from 'hono'
import type { AppEnv } from '../http/app-env.ts'
import { badRequest } from '../http/app-error.ts'
import type { RequestContext } from '../http/request-context.ts'
import { assertOwnImages, attachImages } from '../images/service.ts'
import { requireImageReader, requireRunnableModel } from '../models/service.ts'
import {
  type ConversationRecord,
  type ConversationScope,
  createConversationRecord,
  findConversationRecord,
  loadHistory,
  presentConversation,
  titleFromMessage,
} from './conversation-records.ts'
import type { ConversationRuntime } from './conversation-runtime.ts'
import type { SystemPrompt } from './run-types.ts'
import {
  cancelStagedMessage as cancelStaged,
  stageMessage as stageWithRun,
} from './staged-messages.ts'

export type { ConversationRecord, ConversationScope } from './conversation-records.ts'
export {
  createConversationRecord,
  findConversationOfApplication,
  findConversationRecord,
  listConversationRecords,
  loadHistory,
  presentConversation,
  renameConversation,
  titleFromMessage,
} from './conversation-records.ts'
export {
  type ConversationRuntime,
  createConversationRuntime,
} from './conversation-runtime.ts'
export { stopRunsOfUser } from './stop-user-runs.ts'

// The chat's service, shared by the builder's conversations and explorations: each passes its
// scope (which conversations it may touch) and its system prompt.

/** What every chat service function works with: the caller, their organization and the runtime. */
export type ChatContext = Omit<RequestContext, 'origins'> & { runtime: ConversationRuntime }

export function chatContextOf(
  db: Database,
  runtime: ConversationRuntime,
  variables: AppEnv['Variables'],
): ChatContext {
  return { db, organization: variables.organization, userId: variables.user.id, runtime }
}

/**
 * A value of the app's vault typed into the chat is stored and sent as `[secret KEY]`, like
 * everything else (docs/product/vault.md "Redaction").
 */
async function redactTyped(context: ChatContext, scope: ConversationScope, text: string) {
  const { secrets } = context.runtime
  if (!scope.applicationId || !secrets) return text
  return (await secrets.load(scope.applicationId)).redactor.redact(text)
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
    /** The builder's or the exploration's system prompt. */
    system: SystemPrompt
    /** Uploaded images sent with it (docs/product/images.md). */
    images?: string[]
    /** Elements pointed at in the preview (docs/product/builder.md "Select mode"). */
    selections?: PreviewSelection[]
  },
): Promise<{ conversation: ConversationRecord; runId: string }> {
  const model = requireRunnableModel(context.runtime.config, input.model)
  const imageIds = input.images ?? []
  if (imageIds.length > 0) requireImageReader(context.runtime.config, model)
  const message = await redactTyped(context, scope, input.message)
  // A snippet is the page's own text: a secret the app shows goes to the model no more than typed.
  const selections = await Promise.all(
    (input.selections ?? []).map(async (selection) => ({
      ...selection,
      snippet: await redactTyped(context, scope, selection.snippet),
    })),
  )
  const owner = { organizationId: context.organization.id, userId: context.userId }
  // A new conversation is made only for images that can be attached to it.
  if (!input.conversationId) await assertOwnImages(context.db, { ids: imageIds, ...owner })
  const conversation = input.conversationId
    ? await findConversationRecord(context.db, scope, input.conversationId)
    : await createConversationRecord(context.db, scope, {
        title: titleFromMessage(message),
        model: input.model,
        createdBy: context.userId,
      })
  const images = await attachImages(context.db, {
    ids: imageIds,
    ...owner,
    conversationId: conversation.id,
  })
  return context.runtime.runs.startRun({
    conversation,
    model: input.model,
    system: input.system,
    userMessage: { text: message, clientId: input.clientId, images, selections },
    userId: context.userId,
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
    { text: await redactTyped(context, scope, input.message), clientId: input.clientId },
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
  input: { conversationId: string; model: string | undefined; system: SystemPrompt },
): Promise<{ conversation: ConversationRecord; runId: string }> {
  const conversation = await findConversationRecord(context.db, scope, input.conversationId)
  const history = await loadHistory(context.db, conversation.id)
  if (history.length === 0) throw badRequest('There is nothing to continue yet: send a message.')
  const { runId } = await context.runtime.runs.startRun({
    conversation,
    model: input.model ?? conversation.activeModel,
    system: input.system,
    userId: context.userId,
  })
  return { conversation, runId }
}

/** The resume point: the `Last-Event-ID` header wins over the query's or body's value. */
export function lastEventIdOf(context: Context, fromQuery: number | undefined): number | undefined {
  const header = context.req.header('last-event-id')?.trim()
  if (header === undefined || header === '') return fromQuery
  if (!/^\d{1,15}$/.test(header)) throw badRequest('Invalid header "Last-Event-ID": not a seq')
  return Number(header)
}
