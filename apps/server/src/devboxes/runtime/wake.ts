import { type DevboxRuntimeState, track } from './devbox-runtime-state.ts'

/** A use: touches the application and starts its dev server again when it was idled. */
export function wake(state: DevboxRuntimeState, applicationId: string): Promise<void> {
  const { usage, suspended, waking, logger } = state
  usage.touch(applicationId)
  if (!suspended.has(applicationId)) return Promise.resolve()
  const already = waking.get(applicationId)
  if (already) return already
  const work = track(
    state,
    (async () => {
      await state.suspending.get(applicationId)
      const startedAt = Date.now()
      try {
        await state.boxes.get(applicationId)?.devServer.start()
        logger.info('Started an idle dev server again', {
          applicationId,
          durationMs: Date.now() - startedAt,
        })
      } catch (error) {
        // The dev server keeps restarting by itself; its logs say why it failed.
        logger.warn('An idle dev server did not start again', {
          applicationId,
          error: (error as Error).message,
        })
      } finally {
        suspended.delete(applicationId)
        usage.touch(applicationId)
      }
    })().finally(() => waking.delete(applicationId)),
  )
  waking.set(applicationId, work)
  return work
}
