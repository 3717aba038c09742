import { randomUUID } from 'node:crypto'
import { selectionsText } from '@sprout/protocol/api/preview-selections.ts'
import type { ModelMessage } from 'ai'
import { emitSafely, type RunContext, type RunReference } from './close-run.ts'
import { appendHistory, loadAndAppendHistory, loadHistory } from './conversation-records.ts'
import { userContent, withImageBytes } from './history-images.ts'
import type { StartRunInput } from './run-types.ts'

/**
 * Opens a claimed run; answers with the starting history. `stored` settles once the user message
 * (with the tab's client id, for echo suppression) and `data-run running` are in the stream; the
 * POST answers then. All of it delays the first token (docs/performance.md "API and first token").
 */
export async function openRun(
  { database, store }: RunContext,
  run: RunReference,
  input: {
    userMessage?: StartRunInput['userMessage']
    repairOf?: { title: string }
    /** Where the conversation's images are kept (images/image-files.ts). */
    imagesDir: string
  },
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
    return {
      history: await withImageBytes({ db, directory: input.imagesDir }, run.conversationId, [
        ...previous,
        ...added,
      ]),
      stored,
    }
  }
  const { text, clientId, images = [], selections = [] } = input.userMessage
  // The agent reads the selections after the text; the echo keeps them apart, for the chips.
  const content = userContent(`${text}${selectionsText(selections)}`, images)
  const added: ModelMessage[] = [{ role: 'user', content }]
  const previous = await loadAndAppendHistory(db, run.conversationId, added)
  const stored = store.appendAndWait(run.conversationId, null, {
    type: 'data-user-message',
    data: {
      id: randomUUID(),
      text,
      ...(clientId ? { clientId } : {}),
      ...(input.repairOf ? { repair: { title: input.repairOf.title } } : {}),
      ...(images.length > 0 ? { images } : {}),
      ...(selections.length > 0 ? { selections } : {}),
    },
  })
  emitSafely(store, run, { type: 'data-run', data: { runId: run.id, status: 'running' } })
  // Observed here; the caller awaits it after the run is under way.
  stored.catch(() => undefined)
  return {
    history: await withImageBytes({ db, directory: input.imagesDir }, run.conversationId, [
      ...previous,
      ...added,
    ]),
    stored,
  }
}
