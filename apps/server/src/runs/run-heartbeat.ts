import { runs } from '@sprout/db/schema/runs.ts'
import { and, eq, sql } from 'drizzle-orm'
import { INTERRUPTS_CHANNEL, type RunManagerState } from './run-manager-state.ts'
import { recoverStaleRuns } from './stale-runs.ts'

/** The leader's sweep (docs/decisions/032-one-leader.md): runs whose instance stopped beating. */
const sweep = (state: RunManagerState) =>
  recoverStaleRuns(state.closing, state.instanceId, state.settings.staleAfterMs)

const queue = (state: RunManagerState, work: () => Promise<void>) => {
  state.ticking = state.ticking
    .then(work)
    .catch((error: unknown) => console.error('[runs] heartbeat failed:', error))
}

async function tick(state: RunManagerState) {
  if (state.active.size > 0) {
    await state.database.db
      .update(runs)
      .set({ heartbeatAt: sql`now()` })
      .where(and(eq(runs.ownerInstance, state.instanceId), eq(runs.status, 'running')))
  }
  if (state.leadership.isLeader()) await sweep(state)
}

/** Listens for interrupts, heartbeats this process's runs and, as leader, closes dead ones'. */
export async function startHeartbeat(state: RunManagerState) {
  state.stopListening = await state.database.listen(INTERRUPTS_CHANNEL, (runId) => {
    for (const run of state.active.values()) if (run.id === runId) run.controller.abort()
  })
  // PGlite serves one process only, so any run still `running` belonged to a dead one.
  if (state.database.kind === 'pglite') {
    await recoverStaleRuns(state.closing, state.instanceId, undefined)
  } else if (state.leadership.isLeader()) {
    await sweep(state)
  }
  // A new leader sweeps at once rather than at its next beat.
  state.stopFollowingLeadership = state.leadership.onLeadershipChange((leader) => {
    if (leader) queue(state, () => sweep(state))
  })
  state.timer = setInterval(() => queue(state, () => tick(state)), state.settings.heartbeatMs)
  state.timer.unref()
}

/** Stops the heartbeat and every run of this process; `asRestart` marks them retryable. */
export async function stopAllRuns(state: RunManagerState, asRestart: boolean) {
  clearInterval(state.timer)
  state.stopFollowingLeadership?.()
  await state.ticking
  await state.stopListening?.()
  const stopping = [...state.active.values()]
  for (const run of stopping) {
    run.shuttingDown = asRestart
    run.controller.abort()
  }
  await Promise.allSettled(stopping.map((run) => run.done))
}
