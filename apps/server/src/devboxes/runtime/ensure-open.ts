import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { applyEnvironment, environmentFor } from './app-environment.ts'
import { type DevboxRuntimeState, track } from './devbox-runtime-state.ts'
import { markFailed } from './mark-failed.ts'

/**
 * Opens a box recorded before the restart: after the pool's own boxes (so new applications
 * still open at once), in its turn among the server's box starts.
 */
export function ensureOpen(
  state: DevboxRuntimeState,
  applicationId: string,
): Promise<Devbox | undefined> {
  const open = state.boxes.get(applicationId)
  if (open) return Promise.resolve(open)
  const already = state.opening.get(applicationId)
  if (already) return already
  const row = state.unopened.get(applicationId)
  if (!row) return Promise.resolve(undefined)
  const work = track(
    state,
    (async () => {
      await state.poolStarted.catch(() => undefined)
      return state.starts.run(applicationId, async () => {
        if (state.stopping || !state.unopened.has(applicationId)) {
          return state.boxes.get(applicationId)
        }
        try {
          const env = await environmentFor(state, applicationId)
          const box = await state.driver.open(row.id, row.packType, { env })
          state.unopened.delete(applicationId)
          // The application was deleted while its box was being opened.
          if (!state.states.has(applicationId)) return undefined
          // Its row already says ready: only this process's maps change.
          state.usage.touch(applicationId)
          await applyEnvironment(state, applicationId, box)
          state.boxes.set(applicationId, box)
          state.states.set(applicationId, 'ready')
          return box
        } catch (error) {
          state.unopened.delete(applicationId)
          await markFailed(state, applicationId, error)
          return undefined
        }
      })
    })().finally(() => state.opening.delete(applicationId)),
  )
  state.opening.set(applicationId, work)
  return work
}
