import type { SendMessageResponse } from '@sprout/protocol/api/conversations.ts'
import type { ChatImage } from '@sprout/protocol/api/images.ts'
import type { PreviewSelection } from '@sprout/protocol/api/preview-selections.ts'
import { ApiError } from '../../lib/api-error.ts'
import { IMAGES_AFTER_RUN_HINT, SELECTIONS_AFTER_RUN_HINT } from '../../lib/chat-image-texts.ts'
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
export function sendBuilderMessage(
  context: BuilderChatContext,
  text: string,
  model: string,
  images: readonly ChatImage[],
  selections: readonly PreviewSelection[] = [],
): void {
  const { chat } = context
  const targetId = context.conversationId ?? null
  chat.setNotice(null)
  context.setDraftNote(null)
  if (targetId && chat.state.isRunning) {
    // A queued message is text only (docs/product/images.md): the images wait in the draft.
    if (images.length > 0) context.attachments.setError(IMAGES_AFTER_RUN_HINT)
    else if (selections.length > 0) context.attachments.setError(SELECTIONS_AFTER_RUN_HINT)
    else void stageBuilderMessage(context, text, targetId)
    return
  }
  const clientId = crypto.randomUUID()
  const withImages = images.length > 0 ? { images } : {}
  const withSelections = selections.length > 0 ? { selections } : {}
  chat.store.dispatch({
    type: 'local-user-message',
    text,
    clientId,
    ...withImages,
    ...withSelections,
  })
  context.setDraft('')
  if (images.length > 0) context.attachments.clear()
  if (selections.length > 0) context.selections.clear()
  const post = (chosenModel: string) =>
    sendMessage(context.applicationId, {
      message: text,
      model: chosenModel,
      client_id: clientId,
      ...(targetId ? { conversation_id: targetId } : {}),
      ...(images.length > 0 ? { images: images.map((image) => image.id) } : {}),
      ...(selections.length > 0 ? { selections: [...selections] } : {}),
    })
  void deliverMessage(context, { text, images, selections }, targetId, () => post(model))
}

async function deliverMessage(
  context: BuilderChatContext,
  message: {
    text: string
    images: readonly ChatImage[]
    selections: readonly PreviewSelection[]
  },
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
    const { text, images, selections } = message
    const textOnly = images.length === 0 && selections.length === 0
    if (error instanceof ApiError && error.status === 409 && targetId && textOnly) {
      void stageBuilderMessage(context, text, targetId)
      return
    }
    context.queue.restoreToInput(text)
    context.attachments.restore(images)
    if (selections.length > 0) context.selections.restore(selections)
    chat.fail(error)
  }
}
