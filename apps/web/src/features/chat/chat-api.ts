import {
  type Conversation,
  conversationListSchema,
  type SendMessageRequest,
  type SendMessageResponse,
  sendMessageResponseSchema,
  stageMessageResponseSchema,
} from '@sprout/protocol/api/conversations.ts'
import { STAGE_MESSAGE_TIMEOUT_MS } from '@sprout/protocol/constants.ts'
import type { z } from 'zod'
import { apiRequest } from '../../lib/api-client.ts'

export type ConversationSummary = Conversation
export type StageAnswer = z.infer<typeof stageMessageResponseSchema>

const base = (applicationId: string) =>
  `/api/demo/applications/${encodeURIComponent(applicationId)}`

const withConversation = (path: string, conversationId: string) =>
  `${path}?${new URLSearchParams({ conversation_id: conversationId })}`

/** The application's conversations, newest first (docs/product/builder.md "Conversation list"). */
export async function listConversations(applicationId: string): Promise<Conversation[]> {
  return conversationListSchema.parse(await apiRequest(`${base(applicationId)}/conversations`))
}

/** The listen URL: history first when `lastSeq` is null, else only what came after it. */
export function listenUrl(
  applicationId: string,
  conversationId: string,
  token: string,
  lastSeq: number | null,
): string {
  const query = new URLSearchParams({ conversation_id: conversationId, token })
  if (lastSeq !== null) query.set('last_event_id', String(lastSeq))
  return `${base(applicationId)}/listen?${query}`
}

/** Starts a run; without a conversation id it creates the conversation. 409 while one runs. */
export async function sendMessage(
  applicationId: string,
  body: SendMessageRequest,
): Promise<SendMessageResponse> {
  return sendMessageResponseSchema.parse(
    await apiRequest(`${base(applicationId)}/message`, { method: 'POST', body }),
  )
}

/** Queues a message for the running agent; answered once the run takes it or hands it back. */
export async function stageMessage(
  applicationId: string,
  body: { message: string; conversation_id: string; client_id: string },
): Promise<StageAnswer> {
  return stageMessageResponseSchema.parse(
    await apiRequest(`${base(applicationId)}/stage-message`, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(STAGE_MESSAGE_TIMEOUT_MS),
    }),
  )
}

/**
 * Takes a queued message back (Escape): the server marks it unsent unless the run took it
 * already. Needs the server's DELETE …/stage-message; a server without it answers 404.
 */
export function cancelStagedMessage(
  applicationId: string,
  conversationId: string,
  clientId: string,
): Promise<unknown> {
  const query = new URLSearchParams({ conversation_id: conversationId, client_id: clientId })
  return apiRequest(`${base(applicationId)}/stage-message?${query}`, { method: 'DELETE' })
}

export function interruptRun(applicationId: string, conversationId: string): Promise<unknown> {
  return apiRequest(withConversation(`${base(applicationId)}/interrupt`, conversationId), {
    method: 'POST',
  })
}

/** Retries after an error (the last error's '(click to retry)'). */
export function continueRun(applicationId: string, conversationId: string): Promise<unknown> {
  return apiRequest(withConversation(`${base(applicationId)}/continue`, conversationId), {
    method: 'POST',
  })
}
