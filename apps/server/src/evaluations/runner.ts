import type { ProvidersConfig } from '@sprout/agent/providers/providers-config.ts'
import type { Database } from '@sprout/db/database.ts'
import { evaluationItems, evaluations } from '@sprout/db/schema/evaluations.ts'
import { and, eq, sql } from 'drizzle-orm'
import { conflict } from '../http/app-error.ts'
import { createJudge, defaultJudgeRetry, type Judge, type JudgeRetry } from './judge.ts'
import { findEvaluationForStart } from './service.ts'
import { judgeInstructions } from './templates.ts'
import { loadTranscript } from './transcript.ts'

/**
 * Runs evaluations in this process (decision 020): at most `concurrent_limit` items at once, each
 * claimed pending → in_progress, then complete or failed. After a restart in_progress items go back
 * to pending; finished ones are never redone.
 */
export type EvaluationRunner = ReturnType<typeof createEvaluationRunner>

type EvaluationRow = typeof evaluations.$inferSelect
type ClaimedItem = { id: string; conversationId: string | null }

/** The next pending item, taken atomically (another worker or instance never gets it too). */
async function claim(db: Database, evaluationId: string): Promise<ClaimedItem | undefined> {
  const result = await db.execute(sql`
    update evaluation_items set status = 'in_progress', started_at = now(), attempts = attempts + 1
    where id = (
      select id from evaluation_items
      where evaluation_id = ${evaluationId} and status = 'pending'
      order by position limit 1 for update skip locked)
    returning id, conversation_id`)
  const row = (result as unknown as { rows: { id: string; conversation_id: string | null }[] })
    .rows[0]
  return row ? { id: row.id, conversationId: row.conversation_id } : undefined
}

async function finishItem(
  db: Database,
  itemId: string,
  startedAt: number,
  outcome: { summary: string; result: Record<string, unknown> } | { error: string },
) {
  await db
    .update(evaluationItems)
    .set({
      processingTimeMs: Math.round(performance.now() - startedAt),
      ...('error' in outcome
        ? { status: 'failed', error: outcome.error }
        : { status: 'complete', summary: outcome.summary, result: outcome.result, error: null }),
    })
    .where(and(eq(evaluationItems.id, itemId), eq(evaluationItems.status, 'in_progress')))
}

/** Completed once no item is pending or in progress; failed when no item completed. */
async function complete(db: Database, evaluationId: string) {
  await db.execute(sql`
    update evaluations set
      status = case when exists (
        select 1 from evaluation_items where evaluation_id = ${evaluationId} and status = 'complete'
      ) then 'completed' else 'failed' end,
      completed_at = now()
    where id = ${evaluationId} and status = 'in_progress'
      and not exists (
        select 1 from evaluation_items
        where evaluation_id = ${evaluationId} and status in ('pending', 'in_progress'))`)
}

export function createEvaluationRunner(options: {
  db: Database
  providers: ProvidersConfig
  retry?: JudgeRetry
  /** Tests: a judge of their own. */
  createJudge?: (modelId: string) => Judge
}) {
  const { db } = options
  const running = new Map<string, Promise<void>>()
  let controller = new AbortController()
  const judgeFor =
    options.createJudge ??
    ((modelId: string) =>
      createJudge(modelId, options.providers, options.retry ?? defaultJudgeRetry))

  async function runItem(evaluation: EvaluationRow, judge: Judge | Error, item: ClaimedItem) {
    const startedAt = performance.now()
    const signal = controller.signal
    try {
      if (judge instanceof Error) throw judge
      if (!item.conversationId) throw new Error('The conversation was deleted')
      const transcript = await loadTranscript(db, item.conversationId)
      const verdict = await judge({
        transcript,
        instructions: judgeInstructions(evaluation),
        signal,
      })
      await finishItem(db, item.id, startedAt, verdict)
    } catch (error) {
      // Stopping: the item stays in_progress and goes back to pending when the server resumes.
      if (signal.aborted) return
      await finishItem(db, item.id, startedAt, { error: (error as Error).message || String(error) })
    }
  }

  async function run(evaluation: EvaluationRow) {
    let judge: Judge | Error
    try {
      judge = judgeFor(evaluation.model)
    } catch (error) {
      judge = error as Error
    }
    const signal = controller.signal
    const worker = async () => {
      while (!signal.aborted) {
        const item = await claim(db, evaluation.id)
        if (!item) return
        await runItem(evaluation, judge, item)
      }
    }
    await Promise.all(Array.from({ length: evaluation.concurrentLimit }, worker))
    if (!signal.aborted) await complete(db, evaluation.id)
  }

  function launch(evaluation: EvaluationRow) {
    if (running.has(evaluation.id)) return
    const done = run(evaluation)
      .catch((error: Error) => {
        console.error(`[evaluations] evaluation ${evaluation.id} stopped:`, error.message)
      })
      .finally(() => running.delete(evaluation.id))
    running.set(evaluation.id, done)
  }

  return {
    /** `POST …/{id}/start`: pending → in_progress, then runs; starting a running one is a no-op. */
    async start(evaluationId: string): Promise<void> {
      const evaluation = await findEvaluationForStart(db, evaluationId)
      if (evaluation.status === 'completed' || evaluation.status === 'failed') {
        throw conflict('This evaluation has already finished')
      }
      const [started] = await db
        .update(evaluations)
        .set({ status: 'in_progress' })
        .where(and(eq(evaluations.id, evaluationId), eq(evaluations.status, 'pending')))
        .returning()
      if (started) launch(started)
    },
    /** At server start: every evaluation in progress goes on from where it was. */
    async resume(): Promise<number> {
      const unfinished = await db
        .select()
        .from(evaluations)
        .where(eq(evaluations.status, 'in_progress'))
      for (const evaluation of unfinished) {
        await db
          .update(evaluationItems)
          .set({ status: 'pending', startedAt: null })
          .where(
            and(
              eq(evaluationItems.evaluationId, evaluation.id),
              eq(evaluationItems.status, 'in_progress'),
            ),
          )
        launch(evaluation)
      }
      return unfinished.length
    },
    /** Resolves once the evaluation's run in this process has ended (tests, the benchmark). */
    settled: (evaluationId: string) => running.get(evaluationId) ?? Promise.resolve(),
    /** Aborts the judges in flight and waits; their items are resumed at the next start. */
    async stop(): Promise<void> {
      controller.abort(new Error('The server is stopping'))
      await Promise.all(running.values())
      controller = new AbortController()
    },
  }
}
