import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { eq } from 'drizzle-orm'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'
import { takeRow } from './start-runtime.ts'

/**
 * This instance took the application's lease (docs/decisions/033-box-leases-and-relay.md): its
 * box is read from its row, as at a start, and opened on first use. Known boxes stay as they are.
 */
export async function adoptBox(state: DevboxRuntimeState, applicationId: string) {
  if (state.states.has(applicationId) || state.stopping) return
  const [row] = await state.db
    .select()
    .from(devboxes)
    .where(eq(devboxes.applicationId, applicationId))
    .limit(1)
  if (row && !state.states.has(applicationId)) takeRow(state, row)
}

/**
 * The lease is lost or given up: the box's dev server and production servers stop here and the
 * runtime forgets it, so the instance that takes the lease opens it from the shared folder.
 */
export async function releaseBox(state: DevboxRuntimeState, applicationId: string) {
  await state.opening.get(applicationId)?.catch(() => undefined)
  const id = state.boxes.get(applicationId)?.id
  for (const known of [state.boxes, state.states, state.unopened, state.opening]) {
    known.delete(applicationId)
  }
  state.failureReported.delete(applicationId)
  state.suspended.delete(applicationId)
  if (id) await state.driver.close?.(id)
  await state.appServers?.stop(applicationId)
}
