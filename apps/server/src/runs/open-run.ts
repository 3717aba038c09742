import { randomUUID } from 'node:crypto'
import type { ModelMessage } from 'ai'
import { emitSafely, type RunContext, type RunReference } from './close-run.ts'
import {
  appendHistory,
  type ConversationRecord,
  loadHistory,
  touchConversation,
} from './conversation-records.ts'

/**
 * The start of a claimed run. It answers at once with the history the agent starts from, so the
 * provider call need not wait for the writes; `stored` settles once the user message is in the
 * history and the stream (with the tab's client id for echo suppression), followed by
 * `data-run running`, and the conversation row is touched. The POST answers after `stored`.
 */
export async function openRun(
  { database, store }: RunContext,
  run: RunReference,
  input: { model: string; userMessage?: { text: string; clientId: string | undefined } },
): Promise<{ history: ModelMessage[]; stored: Promise<ConversationRecord> }> {
  const db = database.db
  const previous = await loadHistory(db, run.conversationId)
  const added: ModelMessage[] = []
  let userEvent: Promise<void> = Promise.resolve()
  if (input.userMessage) {
    const { text, clientId } = input.userMessage
    added.push({ role: 'user', content: text })
    userEvent = store.appendAndWait(run.conversationId, null, {
      type: 'data-user-message',
      data: { id: randomUUID(), text, ...(clientId ? { clientId } : {}) },
    })
  } else if (previous.at(-1)?.role === 'assistant') {
    // A retry after an interrupt: providers expect the user to speak last.
    added.push({ role: 'user', content: 'Please continue.' })
  }
  emitSafely(store, run, { type: 'data-run', data: { runId: run.id, status: 'running' } })
  const stored = Promise.all([
    appendHistory(db, run.conversationId, added),
    userEvent,
    touchConversation(db, run.conversationId, {
      model: input.model,
      withUserMessage: input.userMessage !== undefined,
    }),
  ]).then(([, , conversation]) => conversation)
  // Observed here; the caller awaits it after the run is under way.
  stored.catch(() => undefined)
  return { history: [...previous, ...added], stored }
}
