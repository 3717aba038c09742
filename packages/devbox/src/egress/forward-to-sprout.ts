import type { IncomingMessage, ServerResponse } from 'node:http'
import { BOX_IDENTITY_HEADER } from './box-identity.ts'
import { sendOn, withoutHopByHop } from './forward-http.ts'
import { internalHostname } from './sprout-internal.ts'

/**
 * A pod's request to sprout.internal, sent on to Sprout with the credentials the box gave its
 * proxy (docs/decisions/039-egress-proxy-for-pods.md): Sprout checks them and answers as it
 * answers a local box. Any identity header the box wrote itself is replaced.
 */
export function forwardToSprout(
  sproutUrl: string,
  credential: string,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const url = new URL(request.url ?? '/', sproutUrl)
  sendOn(
    request,
    response,
    {
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers: {
        ...withoutHopByHop(request.headers),
        host: internalHostname,
        [BOX_IDENTITY_HEADER]: credential,
      },
    },
    { name: 'Sprout' },
  )
}
