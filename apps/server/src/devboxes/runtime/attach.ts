import { randomUUID } from 'node:crypto'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import type { PackType } from '@sprout/devbox/devbox-driver.ts'
import { applyEnvironment } from './app-environment.ts'
import { type DevboxRuntimeState, trackFor } from './devbox-runtime-state.ts'
import { provisionCold } from './provision-cold.ts'

/**
 * Gives the application a box: a ready one from the pool at once (open, or a shared pool's files,
 * opened on first use), else one provisioned now.
 */
export async function attach(
  state: DevboxRuntimeState,
  applicationId: string,
  packType: PackType = 'fullstack',
) {
  const taken = await state.pool.take(packType)
  const claimed = taken?.box
  const id = taken?.id ?? randomUUID()
  await state.db.insert(devboxes).values({
    id,
    applicationId,
    packType,
    status: taken ? 'ready' : 'provisioning',
    // A pool box is built; a cold one is marked when it first becomes ready (mark-ready.ts).
    builtAt: taken ? new Date() : null,
  })
  if (taken && !claimed) {
    // Made by any instance and closed (docs/decisions/034-one-pool-in-a-table.md): opened here
    // on first use, as a box recorded before a restart.
    state.states.set(applicationId, 'provisioning')
    state.unopened.set(applicationId, { id, packType: taken.packType })
    return
  }
  if (claimed) {
    state.boxes.set(applicationId, claimed)
    state.states.set(applicationId, 'ready')
    // Its dev server started without the app's environment (SENTRY_DSN, SPROUT_APP_TOKEN):
    // it restarts with it, on the same port, while the app opens.
    void trackFor(state, applicationId, applyEnvironment(state, applicationId, claimed)).catch(
      (error: Error) => {
        state.logger.warn('A pool box did not take its app environment', {
          applicationId,
          error: error.message,
        })
      },
    )
    return
  }
  state.states.set(applicationId, 'provisioning')
  void provisionCold(state, applicationId, packType, id)
}
