import { randomUUID } from 'node:crypto'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import type { RunStatus, StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import type { ModelMessage } from 'ai'
import { and, eq, sql } from 'drizzle-orm'
import type { EventStore } from '../stream/event-store.ts'
import {
  appendHistory,
  type ConversationRecord,
  loadHistory,
  touchConversation,
} from './conversation-records.ts'
import { handBackStagedMessages } from './staged-messages.ts'

export const RESTART_ERROR_MESSAGE = 'The server restarted during this run. Click to retry.'

type ClosingContext = { database: DatabaseHandle; store: EventStore }
type RunReference = { id: string; conversationId: string }

/**
 * The start of a claimed run. It answers at once with the history the agent starts from, so the
 * provider call need not wait for the writes; `stored` settles once the user message is in the
 * history and the stream (with the tab's client id for echo suppression), followed by
 * `data-run running`, and the conversation row is touched. The POST answers after `stored`.
 */
export async function openRun(
  { database, store }: ClosingContext,
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

/** Queues a chunk; a failing event store must not keep a run from closing its row. */
export function emitSafely(store: EventStore, run: RunReference, chunk: StreamChunk) {
  try {
    void store.append(run.conversationId, run.id, chunk)?.catch(() => undefined)
  } catch (error) {
    console.error('[runs] storing a chunk failed:', error)
  }
}

/**
 * The end every run gets, so that every client stops its spinner: `finish` (unless the agent sent
 * one), `data-run` with the outcome, the row closed, then staged messages handed back.
 */
export async function closeRun(
  { database, store }: ClosingContext,
  run: RunReference,
  outcome: { status: Exclude<RunStatus, 'running'>; sawFinish: boolean; error: string | undefined },
) {
  try {
    if (!outcome.sawFinish) emitSafely(store, run, { type: 'finish' })
    emitSafely(store, run, { type: 'data-run', data: { runId: run.id, status: outcome.status } })
    await store.flush(run.conversationId).catch(() => undefined)
  } finally {
    await database.db
      .update(runs)
      .set({
        status: outcome.status,
        error: outcome.error === undefined ? null : toStorableText(outcome.error),
        finishedAt: sql`now()`,
      })
      .where(and(eq(runs.id, run.id), eq(runs.status, 'running')))
  }
  // After the row is closed, so that a message staged meanwhile is refused or swept here.
  await handBackStagedMessages({ db: database.db, store }, run.conversationId)
}

/**
 * Takes over the runs of processes that died (their heartbeat is older than `staleAfterMs`, or
 * any other instance's with `undefined`) and closes them with a retryable error.
 */
export async function recoverStaleRuns(
  context: ClosingContext,
  instanceId: string,
  staleAfterMs: number | undefined,
) {
  const staleBefore =
    staleAfterMs === undefined
      ? 'now()'
      : `now() - interval '${Math.round(staleAfterMs)} milliseconds'`
  // Claiming the row first means only one process closes each run.
  const { rows } = await context.database.execute(
    `update runs set owner_instance = $1, heartbeat_at = now()
     where status = 'running' and owner_instance <> $1 and heartbeat_at <= ${staleBefore}
     returning id, conversation_id`,
    [instanceId],
  )
  for (const row of rows) {
    const run = { id: String(row.id), conversationId: String(row.conversation_id) }
    emitSafely(context.store, run, {
      type: 'data-error',
      data: { error: RESTART_ERROR_MESSAGE, errorType: 'internal' },
    })
    await closeRun(context, run, {
      status: 'failed',
      sawFinish: false,
      error: RESTART_ERROR_MESSAGE,
    })
  }
}
