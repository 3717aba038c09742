import type { DevboxRuntimeState } from './devbox-runtime-state.ts'

/** Waits for the work under way, then closes the pool, the production servers and the driver. */
export async function stopRuntime(state: DevboxRuntimeState) {
  clearInterval(state.sweepTimer)
  // A box whose start still waits stays recorded as provisioning (or ready, not yet opened):
  // the next start-up starts it (docs/architecture/devbox.md "Starts at once").
  state.stopping = true
  await Promise.allSettled([...state.pending])
  await state.pool.close()
  // Production servers start again on their first request after a restart.
  await state.appServers?.close()
  await state.driver.shutdown()
}
