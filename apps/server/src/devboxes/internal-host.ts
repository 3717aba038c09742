import type { IncomingMessage, ServerResponse } from 'node:http'
import { BOX_IDENTITY_HEADER, verifyBoxIdentity } from '@sprout/devbox/egress/box-identity.ts'
import type { DevboxRuntime } from './runtime/devbox-runtime.ts'

/**
 * `sprout.internal` as the pods' egress proxy sends it on (docs/decisions/039-egress-proxy-for-pods.md):
 * answered for the box its identity header proves, as a local box's request to the name; any
 * other request is refused. Any instance answers: the box's application comes from its row.
 */
export function createInternalHost(key: Buffer, devboxes: Pick<DevboxRuntime, 'internalRequest'>) {
  return {
    handle: (request: IncomingMessage, response: ServerResponse) => {
      const header = request.headers[BOX_IDENTITY_HEADER]
      const boxId = verifyBoxIdentity(key, typeof header === 'string' ? header : undefined)
      if (!boxId) {
        request.resume()
        response.writeHead(403, { 'content-type': 'application/json', connection: 'close' })
        response.end(JSON.stringify({ error: 'Forbidden' }))
        return
      }
      delete request.headers[BOX_IDENTITY_HEADER]
      devboxes.internalRequest(boxId, request, response)
    },
  }
}
