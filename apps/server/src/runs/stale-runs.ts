import { closeRun, emitSafely, RESTART_ERROR_MESSAGE, type RunContext } from './close-run.ts'

/**
 * Takes over the runs of processes that died (their heartbeat is older than `staleAfterMs`, or
 * any other instance's with `undefined`) and closes them with a retryable error.
 */
export async function recoverStaleRuns(
  context: RunContext,
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
