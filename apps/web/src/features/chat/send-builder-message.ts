import type { SendMessageResponse } from '@sprout/protocol/api/conversations.ts'
import { ApiError } from '../../lib/api-error.ts'
import type { BuilderChatContext } from './builder-chat-context.ts'
import { sendMessage, stageMessage } from './chat-api.ts'
import { NOT_SENT_NOTE } from './use-staged-queue.ts'

/** Queues a message while the agent runs; if the run ends without it, it comes back. */
export async function stageBuilderMessage(
  context: BuilderChatContext,
  text: string,
  targetId: string,
): Promise<void> {
  const { chat, queue } = context
  const id = crypto.randomUUID()
  queue.markOwn(id)
  chat.store.dispatch({ type: 'local-stage', id, text })
  context.setDraft('')
  try {
    const answer = await stageMessage(context.applicationId, {
      message: text,
      conversation_id: targetId,
      client_id: id,
    })
    if (answer.status === 'unsent') {
      queue.handBack({ id, text })
      context.setDraftNote(NOT_SENT_NOTE)
    } else queue.withdraw(id)
  } catch {
    queue.handBack({ id, text })
  }
}

/** Sends, or queues the message while the agent runs (see BuilderChat `send`). */
export function sendBuilderMessage(context: BuilderChatContext, text: string, model: string): void {
  const { chat } = context
  const targetId = context.conversationId ?? null
  chat.setNotice(null)
  context.setDraftNote(null)
  if (targetId && chat.state.isRunning) {
    void stageBuilderMessage(context, text, targetId)
    return
  }
  const clientId = crypto.randomUUID()
  chat.store.dispatch({ type: 'local-user-message', text, clientId })
  context.setDraft('')
  const post = (chosenModel: string) =>
    sendMessage(context.applicationId, {
      message: text,
      model: chosenModel,
      client_id: clientId,
      ...(targetId ? { conversation_id: targetId } : {}),
    })
  void deliverMessage(context, text, targetId, () => post(model))
}

async function deliverMessage(
  context: BuilderChatContext,
  text: string,
  targetId: string | null,
  post: () => Promise<SendMessageResponse>,
): Promise<void> {
  const { chat, selectedRef } = context
  try {
    const answer = await post()
    const returnedId = answer.conversation_id
    if (returnedId && returnedId !== targetId && (selectedRef.current ?? null) === targetId) {
      // A new conversation keeps the message already shown; its echo is then suppressed.
      if (targetId === null) context.setConversationId(returnedId)
      else context.select(returnedId)
    }
    context.onMessageSent?.()
  } catch (error) {
    if ((selectedRef.current ?? null) !== targetId) return
    // Drops what this tab showed ahead of the server and loads the conversation again.
    chat.store.reset()
    chat.reconnectNow()
    if (error instanceof ApiError && error.status === 409 && targetId) {
      void stageBuilderMessage(context, text, targetId)
      return
    }
    context.queue.restoreToInput(text)
    chat.fail(error)
  }
}
