import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { eq } from 'drizzle-orm'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'

/** Forgets the application's box, waits for the work under way on it, then destroys it. */
export async function destroyBox(state: DevboxRuntimeState, applicationId: string) {
  const rows = await state.db
    .select()
    .from(devboxes)
    .where(eq(devboxes.applicationId, applicationId))
  state.boxes.delete(applicationId)
  state.states.delete(applicationId)
  state.unopened.delete(applicationId)
  state.usage.forget(applicationId)
  state.suspended.delete(applicationId)
  state.failureReported.delete(applicationId)
  await state.opening.get(applicationId)
  await state.suspending.get(applicationId)
  await state.waking.get(applicationId)
  // A box being built or taking the app's environment: its workspace is not deleted under it.
  await state.preparing.get(applicationId)
  for (const row of rows) await state.driver.destroy(row.id)
}
