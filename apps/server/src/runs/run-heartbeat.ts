import { runs } from '@sprout/db/schema/runs.ts'
import { and, eq, sql } from 'drizzle-orm'
import { INTERRUPTS_CHANNEL, type RunManagerState } from './run-manager-state.ts'
import { recoverStaleRuns } from './stale-runs.ts'

async function tick(state: RunManagerState) {
  if (state.active.size > 0) {
    await state.database.db
      .update(runs)
      .set({ heartbeatAt: sql`now()` })
      .where(and(eq(runs.ownerInstance, state.instanceId), eq(runs.status, 'running')))
  }
  await recoverStaleRuns(state.closing, state.instanceId, state.settings.staleAfterMs)
}

/** Listens for interrupts, closes the runs of dead processes, and heartbeats this one's. */
export async function startHeartbeat(state: RunManagerState) {
  state.stopListening = await state.database.listen(INTERRUPTS_CHANNEL, (runId) => {
    for (const run of state.active.values()) if (run.id === runId) run.controller.abort()
  })
  // PGlite serves one process only, so any run still `running` belonged to a dead one.
  await recoverStaleRuns(
    state.closing,
    state.instanceId,
    state.database.kind === 'pglite' ? undefined : state.settings.staleAfterMs,
  )
  state.timer = setInterval(() => {
    state.ticking = state.ticking
      .then(() => tick(state))
      .catch((error: unknown) => console.error('[runs] heartbeat failed:', error))
  }, state.settings.heartbeatMs)
  state.timer.unref()
}

/** Stops the heartbeat and every run of this process; `asRestart` marks them retryable. */
export async function stopAllRuns(state: RunManagerState, asRestart: boolean) {
  clearInterval(state.timer)
  await state.ticking
  await state.stopListening?.()
  const stopping = [...state.active.values()]
  for (const run of stopping) {
    run.shuttingDown = asRestart
    run.controller.abort()
  }
  await Promise.allSettled(stopping.map((run) => run.done))
}
