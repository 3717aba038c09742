import { runs } from '@sprout/db/schema/runs.ts'
import { and, eq } from 'drizzle-orm'
import { INTERRUPTS_CHANNEL, type RunManagerState } from './run-manager-state.ts'

/** Aborts the conversation's run here, or asks the process running it; false when idle. */
export async function interruptRun(state: RunManagerState, conversationId: string) {
  const local = state.active.get(conversationId)
  if (local) {
    local.controller.abort()
    return true
  }
  const rows = await state.database.db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.conversationId, conversationId), eq(runs.status, 'running')))
    .limit(1)
  const running = rows[0]
  if (!running) return false
  await state.database.notify(INTERRUPTS_CHANNEL, running.id)
  return true
}

/** Waits (bounded) for an interrupted run of this process to finish closing. */
export async function settleInterrupted(
  state: RunManagerState,
  conversationId: string,
  timeoutMs: number,
) {
  const run = state.active.get(conversationId)
  if (!run?.controller.signal.aborted) return
  await Promise.race([run.done, new Promise((resolve) => setTimeout(resolve, timeoutMs))])
}
