import type { Database } from '@sprout/db/database.ts'
import type { evaluations } from '@sprout/db/schema/evaluations.ts'
import type { Leadership } from '../cluster/leader.ts'
import {
  beatItems,
  type ClaimedItem,
  claimItem,
  completeEvaluation,
  evaluationsToRun,
  finishItem,
  takeBackStaleItems,
} from './evaluation-claims.ts'
import type { Judge } from './judge.ts'
import { judgeInstructions } from './templates.ts'
import { loadTranscript } from './transcript.ts'

export type EvaluationRow = typeof evaluations.$inferSelect

export type EvaluationSettings = {
  /** How often this instance marks its items alive and, as leader, sweeps. */
  heartbeatMs: number
  /** An item not marked alive for this long belongs to a dead instance. */
  staleAfterMs: number
}

/** What the runner's verbs share: this instance's evaluations and items under way. */
export type EvaluationRunnerState = {
  db: Database
  instanceId: string
  settings: EvaluationSettings
  leadership: Pick<Leadership, 'isLeader' | 'onLeadershipChange'>
  judgeFor: (modelId: string) => Judge
  /** The evaluations with workers in this process. */
  running: Map<string, Promise<void>>
  /** Items judged here, each abortable alone when another instance took it back. */
  inFlight: Map<string, AbortController>
  /** Aborted when this process stops. */
  controller: AbortController
}

async function runItem(
  state: EvaluationRunnerState,
  evaluation: EvaluationRow,
  judge: Judge | Error,
  item: ClaimedItem,
) {
  const { db } = state
  const claim = { id: item.id, instanceId: state.instanceId, startedAt: performance.now() }
  const own = new AbortController()
  state.inFlight.set(item.id, own)
  const signal = AbortSignal.any([state.controller.signal, own.signal])
  try {
    if (judge instanceof Error) throw judge
    if (!item.conversationId) throw new Error('The conversation was deleted')
    const transcript = await loadTranscript(db, item.conversationId)
    const verdict = await judge({ transcript, instructions: judgeInstructions(evaluation), signal })
    await finishItem(db, claim, verdict)
  } catch (error) {
    // Stopping, or taken back: the item is for the next claimer to judge.
    if (signal.aborted) return
    await finishItem(db, claim, { error: (error as Error).message || String(error) })
  } finally {
    state.inFlight.delete(item.id)
  }
}

async function run(state: EvaluationRunnerState, evaluation: EvaluationRow) {
  let judge: Judge | Error
  try {
    judge = state.judgeFor(evaluation.model)
  } catch (error) {
    judge = error as Error
  }
  const signal = state.controller.signal
  // A worker ends when nothing is left to claim, or when other instances' claims fill the limit.
  const worker = async () => {
    while (!signal.aborted) {
      const item = await claimItem(state.db, evaluation.id, state.instanceId)
      if (!item) return
      await runItem(state, evaluation, judge, item)
    }
  }
  await Promise.all(Array.from({ length: evaluation.concurrentLimit }, worker))
  if (!signal.aborted) await completeEvaluation(state.db, evaluation.id)
}

/** Runs the evaluation's workers here, unless they already run; true when launched. */
export function launchEvaluation(state: EvaluationRunnerState, evaluation: EvaluationRow) {
  if (state.running.has(evaluation.id)) return false
  const done = run(state, evaluation)
    .catch((error: Error) => {
      console.error(`[evaluations] evaluation ${evaluation.id} stopped:`, error.message)
    })
    .finally(() => state.running.delete(evaluation.id))
  state.running.set(evaluation.id, done)
  return true
}

/**
 * The leader's sweep (docs/decisions/032-one-leader.md): stale items back to pending, then the
 * evaluations with something to claim run here too. Returns how many were launched.
 */
export async function resumeEvaluations(
  state: EvaluationRunnerState,
  sweep: { everyOtherInstance?: boolean } = {},
): Promise<number> {
  const staleAfterMs = sweep.everyOtherInstance ? undefined : state.settings.staleAfterMs
  await takeBackStaleItems(state.db, state.instanceId, staleAfterMs)
  let launched = 0
  for (const evaluation of await evaluationsToRun(state.db)) {
    if (launchEvaluation(state, evaluation)) launched++
  }
  return launched
}

/** Marks this instance's items alive; stops judging any taken back; as leader, sweeps. */
export async function beatEvaluations(state: EvaluationRunnerState) {
  const mine = [...state.inFlight.keys()]
  const held = await beatItems(state.db, state.instanceId, mine)
  for (const id of mine) if (!held.has(id)) state.inFlight.get(id)?.abort()
  if (state.leadership.isLeader()) await resumeEvaluations(state)
}
