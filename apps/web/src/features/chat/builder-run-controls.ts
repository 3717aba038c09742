import type { BuilderChatContext } from './builder-chat-context.ts'
import { cancelStagedMessage, continueRun, interruptRun } from './chat-api.ts'

export function interruptBuilderRun({ applicationId, conversationId, chat }: BuilderChatContext) {
  if (!conversationId) return
  chat.interrupt(() => interruptRun(applicationId, conversationId))
}

/** Escape: takes queued messages back into the input, else interrupts the run. */
export function pressBuilderEscape(context: BuilderChatContext) {
  const { applicationId, conversationId, queue } = context
  if (queue.stagedMessages.length > 0) {
    queue.takeBackAll()
    context.chat.store.dispatch({ type: 'local-clear-staged' })
    if (conversationId) {
      for (const message of queue.stagedMessages) {
        cancelStagedMessage(applicationId, conversationId, message.id).catch(() => {})
      }
    }
    return
  }
  interruptBuilderRun(context)
}

export function retryBuilderRun({ applicationId, conversationId, chat }: BuilderChatContext) {
  if (!conversationId) return
  chat.setNotice(null)
  continueRun(applicationId, conversationId).catch(chat.fail)
}
