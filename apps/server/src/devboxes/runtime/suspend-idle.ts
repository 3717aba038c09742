import { type DevboxRuntimeState, track } from './devbox-runtime-state.ts'

/** Stops the dev servers nobody used for the idle time; the pool's boxes are not in `boxes`. */
export function suspendIdle(state: DevboxRuntimeState) {
  const { boxes, suspended, suspending, waking, logger } = state
  for (const applicationId of state.usage.idle(boxes.keys())) {
    const box = boxes.get(applicationId)
    if (!box || suspended.has(applicationId) || waking.has(applicationId)) continue
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
