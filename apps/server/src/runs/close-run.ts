import type { DatabaseHandle } from '@sprout/db/database.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import type { RunStatus, StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import { and, eq, sql } from 'drizzle-orm'
import type { EventStore } from '../stream/event-store.ts'
import { handBackStagedMessages } from './staged-messages.ts'

export const RESTART_ERROR_MESSAGE = 'The server restarted during this run. Click to retry.'

export type RunContext = { database: DatabaseHandle; store: EventStore }
export type RunReference = { id: string; conversationId: string }

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
  { database, store }: RunContext,
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
