import type { DevboxRuntimeState } from './devbox-runtime-state.ts'
import { recordLastUse } from './record-last-use.ts'

export type StopOptions = {
  /**
   * Called as each box is closed, its disk let go, before the others are: its lease can go
   * to another instance now rather than after every box (decision 033).
   */
  closed?: (applicationId: string) => Promise<void>
}

/** Waits for the work under way, then closes the pool, the production servers and the driver. */
export async function stopRuntime(state: DevboxRuntimeState, options: StopOptions = {}) {
  clearInterval(state.sweepTimer)
  clearInterval(state.recordTimer)
  // A box whose start still waits stays recorded as provisioning (or ready, not yet opened):
  // the next start-up starts it (docs/architecture/devbox.md "Starts at once").
  state.stopping = true
  await Promise.allSettled([...state.pending])
  // The last uses seen here, for the instance that runs these boxes next (decision 036).
  if (state.idleMs > 0) {
    await recordLastUse(state).catch((error: Error) =>
      state.logger.warn("Recording dev boxes' last use failed", { error: error.message }),
    )
  }
  await state.pool.close()
  // Production servers start again on their first request after a restart.
  await state.appServers?.close()
  const { closed } = options
  const close = state.driver.close
  if (closed && close) {
    await Promise.all(
      [...state.boxes].map(async ([applicationId, box]) => {
        await close(box.id).catch((error: Error) =>
          state.logger.warn('Closing a dev box at stop failed', {
            applicationId,
            error: error.message,
          }),
        )
        await closed(applicationId)
      }),
    )
  }
  await state.driver.shutdown()
}
