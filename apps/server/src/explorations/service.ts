import type { Exploration } from '@sprout/protocol/api/conversations.ts'
import type { ModelMessage } from 'ai'
import { requireRunnableModel } from '../models/service.ts'
import {
  type ChatContext,
  type ConversationRecord,
  type ConversationScope,
  createConversationRecord,
  findConversationRecord,
  loadHistory,
  renameConversation,
  sendMessage,
  titleFromMessage,
} from '../runs/service.ts'
import { explorationSystemPrompt, summaryFromAnswer } from './exploration-prompt.ts'

const UNTITLED_EXPLORATION = 'New exploration'

/** Explorations belong to the caller's organization and have no application. */
export const explorationScope = (context: ChatContext): ConversationScope => ({
  organizationId: context.organization.id,
  kind: 'exploration',
  applicationId: null,
})

/** Starts an exploration; with a message its first run starts at once. */
export async function createExploration(
  context: ChatContext,
  input: {
    message: string | undefined
    model: string | undefined
    clientId: string | undefined
    images?: string[]
  },
): Promise<{ conversation: ConversationRecord; runId: string | undefined }> {
  const model = input.model ?? context.runtime.runs.defaultModel()
  if (input.message === undefined) {
    requireRunnableModel(context.runtime.config, model)
    const conversation = await createConversationRecord(context.db, explorationScope(context), {
      title: UNTITLED_EXPLORATION,
      model,
      createdBy: context.userId,
    })
    return { conversation, runId: undefined }
  }
  return sendExplorationMessage(context, {
    explorationId: undefined,
    message: input.message,
    model,
    clientId: input.clientId,
    images: input.images,
  })
}

export async function sendExplorationMessage(
  context: ChatContext,
  input: {
    explorationId: string | undefined
    message: string
    model: string
    clientId: string | undefined
    images?: string[]
  },
) {
  const scope = explorationScope(context)
  if (input.explorationId) {
    const existing = await findConversationRecord(context.db, scope, input.explorationId)
    // The first message names an exploration created empty.
    if (existing.title === UNTITLED_EXPLORATION && existing.lastMessageAt === null) {
      await renameConversation(context.db, existing.id, titleFromMessage(input.message))
    }
  }
  return sendMessage(context, scope, {
    message: input.message,
    model: input.model,
    conversationId: input.explorationId,
    clientId: input.clientId,
    system: explorationSystemPrompt(),
    images: input.images,
  })
}

function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
}

export async function getExploration(
  context: ChatContext,
  explorationId: string,
): Promise<Exploration> {
  const record = await findConversationRecord(context.db, explorationScope(context), explorationId)
  const history = await loadHistory(context.db, record.id)
  let summary: string | undefined
  for (let index = history.length - 1; index >= 0 && summary === undefined; index--) {
    const message = history[index]
    if (message?.role === 'assistant') summary = summaryFromAnswer(textOf(message))
  }
  return {
    id: record.id,
    title: record.title,
    active_model: record.activeModel,
    created: record.createdAt.toISOString(),
    updated: record.updatedAt.toISOString(),
    ...(summary ? { summary } : {}),
  }
}
