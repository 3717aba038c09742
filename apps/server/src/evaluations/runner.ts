import { randomUUID } from 'node:crypto'
import type { ProvidersConfig } from '@sprout/agent/providers/providers-config.ts'
import type { Database } from '@sprout/db/database.ts'
import { evaluations } from '@sprout/db/schema/evaluations.ts'
import { and, eq } from 'drizzle-orm'
import type { Leadership } from '../cluster/leader.ts'
import { conflict } from '../http/app-error.ts'
import { releaseItems } from './evaluation-claims.ts'
import {
  beatEvaluations,
  type EvaluationRunnerState,
  type EvaluationSettings,
  launchEvaluation,
  resumeEvaluations,
} from './evaluation-work.ts'
import { createJudge, defaultJudgeRetry, type Judge, type JudgeRetry } from './judge.ts'
import { findEvaluationForStart } from './service.ts'

/**
 * Runs evaluations in this process (decision 020): at most `concurrent_limit` items at once over
 * every instance, each claimed pending → in_progress and beaten while judged, then complete or
 * failed. The leader takes back the items of an instance that stopped beating and runs their
 * evaluations (decision 032); finished items are never redone.
 */
export type EvaluationRunner = ReturnType<typeof createEvaluationRunner>

export const defaultEvaluationSettings: EvaluationSettings = {
  heartbeatMs: 5_000,
  staleAfterMs: 30_000,
}

const alwaysLeader = { isLeader: () => true, onLeadershipChange: () => () => {} }

export function createEvaluationRunner(options: {
  db: Database
  providers: ProvidersConfig
  retry?: JudgeRetry
  /** Tests: a judge of their own. */
  createJudge?: (modelId: string) => Judge
  /** Whether this instance sweeps; alone (the default) it always does. */
  leadership?: Pick<Leadership, 'isLeader' | 'onLeadershipChange'>
  /** PGlite: one process, so at start every item in progress belonged to a dead one. */
  singleProcess?: boolean
  settings?: Partial<EvaluationSettings>
}) {
  const { db } = options
  const state: EvaluationRunnerState = {
    db,
    instanceId: randomUUID(),
    settings: { ...defaultEvaluationSettings, ...options.settings },
    leadership: options.leadership ?? alwaysLeader,
    judgeFor:
      options.createJudge ??
      ((modelId) => createJudge(modelId, options.providers, options.retry ?? defaultJudgeRetry)),
    running: new Map(),
    inFlight: new Map(),
    controller: new AbortController(),
  }
  let timer: ReturnType<typeof setInterval> | undefined
  let stopFollowing: (() => void) | undefined
  let ticking: Promise<unknown> = Promise.resolve()
  const queue = (work: () => Promise<unknown>) => {
    ticking = ticking
      .then(work)
      .catch((error: Error) => console.error('[evaluations] heartbeat failed:', error.message))
    return ticking
  }
  const stopBeating = async () => {
    clearInterval(timer)
    stopFollowing?.()
    stopFollowing = undefined
    await ticking
  }

  return {
    instanceId: state.instanceId,
    /** Mutable so tests can shorten the heartbeat. */
    settings: state.settings,
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
      if (started) launchEvaluation(state, started)
    },
    /** One sweep now, as the leader's beat does (tests): the evaluations launched. */
    resume: () => resumeEvaluations(state),
    /** At server start: beats this instance's items and, while leader, sweeps (decision 032). */
    async startHeartbeat(): Promise<void> {
      const everyOtherInstance = options.singleProcess
      if (state.leadership.isLeader())
        await queue(() => resumeEvaluations(state, { everyOtherInstance }))
      stopFollowing = state.leadership.onLeadershipChange((leader) => {
        if (leader) void queue(() => resumeEvaluations(state))
      })
      timer = setInterval(
        () => void queue(() => beatEvaluations(state)),
        state.settings.heartbeatMs,
      )
      timer.unref()
    },
    /** Resolves once the evaluation's run in this process has ended (tests, the benchmark). */
    settled: (evaluationId: string) => state.running.get(evaluationId) ?? Promise.resolve(),
    /** Aborts the judges in flight and hands their items back to pending for any instance. */
    async stop(): Promise<void> {
      await stopBeating()
      state.controller.abort(new Error('The server is stopping'))
      await Promise.all(state.running.values())
      await releaseItems(db, state.instanceId)
      state.controller = new AbortController()
    },
    /** Tests: stops as a crashed process would, its items left in progress and unbeaten. */
    async halt(): Promise<void> {
      await stopBeating()
      state.controller.abort(new Error('The server died'))
      await Promise.all(state.running.values())
    },
  }
}
