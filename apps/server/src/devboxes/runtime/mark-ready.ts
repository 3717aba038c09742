import { devboxes } from '@sprout/db/schema/devboxes.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { eq } from 'drizzle-orm'
import { applyEnvironment } from './app-environment.ts'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'

/** A box provisioned for the application: in use, with its environment, and recorded ready. */
export async function markReady(state: DevboxRuntimeState, applicationId: string, box: Devbox) {
  state.usage.touch(applicationId)
  await applyEnvironment(state, applicationId, box)
  state.boxes.set(applicationId, box)
  state.states.set(applicationId, 'ready')
  await state.db
    .update(devboxes)
    .set({ status: 'ready', error: null })
    .where(eq(devboxes.applicationId, applicationId))
}
