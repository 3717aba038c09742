import { setTimeout as delay } from 'node:timers/promises'
import type { PackType } from '@sprout/devbox/devbox-driver.ts'
import { type DevboxRuntimeState, trackFor } from './devbox-runtime-state.ts'
import { markFailed } from './mark-failed.ts'
import { markReady } from './mark-ready.ts'

/**
 * Builds the application a box from scratch (no ready one in the pool), in the background: it
 * waits its turn among the server's box starts, and a start that failed (a dev server that did not
 * answer on a loaded machine) is tried again after a growing delay, first in the queue
 * (docs/architecture/devbox.md "Starts at once").
 */
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
      const { attempts, baseDelayMs } = state.startRetry
      for (let attempt = 1; ; attempt += 1) {
        try {
          const box = await state.starts.run(
            applicationId,
            async () => {
              if (state.stopping || !state.states.has(applicationId)) return undefined
              return state.driver.provision(packType, { id })
            },
            attempt === 1 ? 'normal' : 'first',
          )
          // The application was deleted while its box waited or was being built.
          if (!box) return
          if (!state.states.has(applicationId)) return await state.driver.destroy(id)
          return await markReady(state, applicationId, box)
        } catch (error) {
          if (state.stopping || !state.states.has(applicationId)) return
          if (attempt >= attempts) {
            return await markFailed(state, applicationId, error)
          }
          state.logger.warn('A dev box did not start; trying again', {
            applicationId,
            attempt,
            error: error instanceof Error ? error.message.slice(0, 500) : String(error),
          })
          // A failed provision removes what it made; what may be left goes before the next try.
          await state.driver.destroy(id).catch(() => undefined)
          await delay(baseDelayMs * 2 ** (attempt - 1))
        }
      }
    })(),
  )
}
