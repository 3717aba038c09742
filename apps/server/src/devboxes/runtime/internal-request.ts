import type { IncomingMessage, ServerResponse } from 'node:http'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { instanceIdPrefix } from '@sprout/devbox/app-servers/instance-id.ts'
import { eq } from 'drizzle-orm'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'

/**
 * The application a dev box or a production instance (`prod-{hash of the app id}-…`) serves; a
 * box another instance holds is found in its row (pods reach any instance, decision 039).
 */
async function applicationOfBox({ boxes, unopened, db }: DevboxRuntimeState, boxId: string) {
  for (const [applicationId, box] of boxes) if (box.id === boxId) return applicationId
  for (const [applicationId, row] of unopened) if (row.id === boxId) return applicationId
  // Every deployed application has a dev box (its deploys are built there).
  for (const applicationId of [...boxes.keys(), ...unopened.keys()]) {
    if (boxId.startsWith(instanceIdPrefix(applicationId))) return applicationId
  }
  const [row] = await db
    .select({ applicationId: devboxes.applicationId })
    .from(devboxes)
    .where(eq(devboxes.id, boxId))
    .limit(1)
  return row?.applicationId
}

/** A box's request to `http://sprout.internal` (the driver's egress proxy calls this). */
export function internalRequest(
  state: DevboxRuntimeState,
  boxId: string,
  request: IncomingMessage,
  response: ServerResponse,
) {
  // A box's request must not throw into the egress proxy's connection handler.
  const answered = applicationOfBox(state, boxId).then((applicationId) =>
    state.appProcesses.handleInternalRequest(applicationId, request, response),
  )
  void answered.catch((error: Error) => {
    state.logger.error('A request to sprout.internal failed', { boxId, error: error.message })
    if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' })
    response.end()
  })
}
