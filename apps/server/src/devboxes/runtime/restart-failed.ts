import { devboxes } from '@sprout/db/schema/devboxes.ts'
import type { PackType } from '@sprout/devbox/devbox-driver.ts'
import { eq } from 'drizzle-orm'
import { environmentFor } from './app-environment.ts'
import { type DevboxRuntimeState, trackFor } from './devbox-runtime-state.ts'
import { markFailed } from './mark-failed.ts'
import { markReady } from './mark-ready.ts'
import { provisionCold } from './provision-cold.ts'

/**
 * The builder asks about a failed box (docs/architecture/devbox.md "Starts at once"): the first ask
 * after the failure reports it (false), and the builder stops asking; a later ask, the builder
 * opened again, starts the box again (true). One that never got built (no `built_at`) is
 * provisioned anew; one that has the app's code is opened again, its workspace kept.
 */
export function restartFailed(state: DevboxRuntimeState, applicationId: string): boolean {
  if (state.states.get(applicationId) !== 'failed') return false
  if (!state.failureReported.has(applicationId)) {
    state.failureReported.add(applicationId)
    return false
  }
  state.failureReported.delete(applicationId)
  state.states.set(applicationId, 'provisioning')
  void trackFor(
    state,
    applicationId,
    (async () => {
      const [row] = await state.db
        .select()
        .from(devboxes)
        .where(eq(devboxes.applicationId, applicationId))
      if (!row) {
        state.states.delete(applicationId)
        return
      }
      // Never built (its cold provision failed, here or before a restart): nothing to keep.
      const cold = row.builtAt === null
      state.logger.info('Starting a failed dev box again: its builder was opened', {
        applicationId,
        cold,
      })
      if (cold) {
        await state.driver.destroy(row.id).catch(() => undefined)
        return provisionCold(state, applicationId, row.packType as PackType, row.id)
      }
      await state.starts.run(applicationId, async () => {
        if (state.stopping) return
        try {
          const box = await state.driver.open(row.id, row.packType as PackType, {
            env: await environmentFor(state, applicationId),
          })
          if (state.states.has(applicationId)) await markReady(state, applicationId, box)
        } catch (error) {
          if (state.states.has(applicationId)) await markFailed(state, applicationId, error)
        }
      })
    })(),
  )
  return true
}
