import { devboxes } from '@sprout/db/schema/devboxes.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { eq, sql } from 'drizzle-orm'
import { applyEnvironment } from './app-environment.ts'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'

/**
 * A box provisioned or opened for the application: in use, with its environment, and recorded
 * ready; its first time ready marks it built, so a restart opens it with its workspace kept
 * (docs/architecture/devbox.md "Starts at once").
 */
export async function markReady(state: DevboxRuntimeState, applicationId: string, box: Devbox) {
  state.usage.touch(applicationId)
  await applyEnvironment(state, applicationId, box)
  state.boxes.set(applicationId, box)
  state.states.set(applicationId, 'ready')
  await state.db
    .update(devboxes)
    .set({ status: 'ready', error: null, builtAt: sql`coalesce(${devboxes.builtAt}, now())` })
    .where(eq(devboxes.applicationId, applicationId))
}
