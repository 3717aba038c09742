import type { PackType } from '@sprout/devbox/devbox-driver.ts'
import { type DevboxRuntimeState, trackFor } from './devbox-runtime-state.ts'
import { markFailed } from './mark-failed.ts'
import { markReady } from './mark-ready.ts'

/** Builds the application a box from scratch (no ready one in the pool), in the background. */
export function provisionCold(
  state: DevboxRuntimeState,
  applicationId: string,
  packType: PackType,
  id: string,
) {
  return trackFor(
    state,
    applicationId,
    (async () => {
      try {
        const box = await state.driver.provision(packType, { id })
        // The application was deleted while its box was being built.
        if (!state.states.has(applicationId)) return await state.driver.destroy(id)
        await markReady(state, applicationId, box)
      } catch (error) {
        await markFailed(state, applicationId, error)
      }
    })(),
  )
}
