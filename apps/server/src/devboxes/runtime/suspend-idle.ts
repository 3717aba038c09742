import { type DevboxRuntimeState, track } from './devbox-runtime-state.ts'
import { usedElsewhere } from './record-last-use.ts'

/**
 * Stops the dev servers nobody used for the idle time, here or, by their rows, through another
 * instance (docs/decisions/036-idle-stops-from-the-row.md); the pool's boxes are not in `boxes`.
 */
export async function suspendIdle(state: DevboxRuntimeState) {
  const { boxes, suspended, suspending, waking, logger } = state
  const idleHere = state.usage
    .idle(boxes.keys())
    .filter((applicationId) => !suspended.has(applicationId) && !waking.has(applicationId))
  if (idleHere.length === 0) return
  const usedThroughOthers = await usedElsewhere(state, idleHere)
  for (const applicationId of idleHere) {
    const box = boxes.get(applicationId)
    if (!box || usedThroughOthers.has(applicationId)) continue
    // Used here, or woken, while the rows were read.
    if (suspended.has(applicationId) || waking.has(applicationId)) continue
    if (!state.usage.idle([applicationId]).includes(applicationId)) continue
    suspended.add(applicationId)
    logger.info('Stopping an idle dev server', { applicationId, boxId: box.id })
    const work = track(state, box.suspend ? box.suspend() : box.devServer.stop())
      .catch((error: Error) =>
        logger.warn('Stopping an idle dev server failed', {
          applicationId,
          error: error.message,
        }),
      )
      .finally(() => suspending.delete(applicationId))
    suspending.set(applicationId, work)
  }
}
