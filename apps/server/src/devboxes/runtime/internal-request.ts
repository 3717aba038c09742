import type { IncomingMessage, ServerResponse } from 'node:http'
import { instanceIdPrefix } from '@sprout/devbox/app-servers/instance-id.ts'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'

/** The application a dev box or a production instance (`prod-{hash of the app id}-…`) serves. */
function applicationOfBox({ boxes, unopened }: DevboxRuntimeState, boxId: string) {
  for (const [applicationId, box] of boxes) if (box.id === boxId) return applicationId
  for (const [applicationId, row] of unopened) if (row.id === boxId) return applicationId
  // Every deployed application has a dev box (its deploys are built there).
  for (const applicationId of [...boxes.keys(), ...unopened.keys()]) {
    if (boxId.startsWith(instanceIdPrefix(applicationId))) return applicationId
  }
  return undefined
}

/** A box's request to `http://sprout.internal` (the driver's egress proxy calls this). */
export function internalRequest(
  state: DevboxRuntimeState,
  boxId: string,
  request: IncomingMessage,
  response: ServerResponse,
) {
  let answered: unknown
  try {
    answered = state.appProcesses.handleInternalRequest(
      applicationOfBox(state, boxId),
      request,
      response,
    )
  } catch (error) {
    // A box's request must not throw into the egress proxy's connection handler.
    answered = Promise.reject(error)
  }
  void Promise.resolve(answered).catch((error: Error) => {
    state.logger.error('A request to sprout.internal failed', { boxId, error: error.message })
    if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' })
    response.end()
  })
}
