import { randomUUID } from 'node:crypto'
import type { ModelMessage } from 'ai'
import { emitSafely, type RunContext, type RunReference } from './close-run.ts'
import { appendHistory, loadAndAppendHistory, loadHistory } from './conversation-records.ts'

/**
 * The start of a claimed run (the claim has touched the conversation row). It answers with the
 * history the agent starts from once that is read: with a new message, the same statement
 * appends it to the history. `stored` settles once the user message is in the stream too (with
 * the tab's client id for echo suppression), followed by `data-run running`; the POST answers
 * after `stored`, and the event store keeps every chunk of the run after them. Each statement
 * here lies on the way to the first token (docs/performance.md "API and first token").
 */
export async function openRun(
  { database, store }: RunContext,
  run: RunReference,
  input: { userMessage?: { text: string; clientId: string | undefined } },
): Promise<{ history: ModelMessage[]; stored: Promise<void> }> {
  const db = database.db
  if (!input.userMessage) {
    const previous = await loadHistory(db, run.conversationId)
    // A retry after an interrupt: providers expect the user to speak last.
    const added: ModelMessage[] =
      previous.at(-1)?.role === 'assistant' ? [{ role: 'user', content: 'Please continue.' }] : []
    emitSafely(store, run, { type: 'data-run', data: { runId: run.id, status: 'running' } })
    const stored = appendHistory(db, run.conversationId, added)
    stored.catch(() => undefined)
    return { history: [...previous, ...added], stored }
  }
  const { text, clientId } = input.userMessage
  const added: ModelMessage[] = [{ role: 'user', content: text }]
  const previous = await loadAndAppendHistory(db, run.conversationId, added)
  const stored = store.appendAndWait(run.conversationId, null, {
    type: 'data-user-message',
    data: { id: randomUUID(), text, ...(clientId ? { clientId } : {}) },
  })
  emitSafely(store, run, { type: 'data-run', data: { runId: run.id, status: 'running' } })
  // Observed here; the caller awaits it after the run is under way.
  stored.catch(() => undefined)
  return { history: [...previous, ...added], stored }
}
