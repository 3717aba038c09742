import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { BoxLeases } from './box-leases.ts'
import {
  createRelayVerifier,
  RELAY_CLIENT_HEADER,
  RELAY_HEADER,
  signRelay,
} from './relay-signature.ts'
import { forwardedHeaders, relayRequest, relayUpgrade } from './relay-streams.ts'
import { setRelayedClient } from './relayed-client.ts'

/** Which application a request concerns (its box), or undefined: served here. */
export type ApplicationOf = (request: IncomingMessage) => Promise<string | undefined>

type RelayOptions = {
  instanceId: string
  key: Buffer
  leases: BoxLeases
  applicationOf: ApplicationOf
  /** This instance took the lease: the runtime learns of the box before the request is served. */
  acquired: (applicationId: string) => Promise<void>
}

/**
 * Any instance relays a request about an application's box to the instance holding its lease
 * (docs/decisions/033-box-leases-and-relay.md): served here when this instance holds the lease
 * or takes it, else streamed both ways to the owner, signed so the owner serves it and never
 * relays it again.
 */
export function createRelay(options: RelayOptions) {
  const verify = createRelayVerifier(options.key)

  type Route = { local: true } | { local: false; ownerUrl: string } | { refused: number }

  const takeIfFree = async (applicationId: string) => {
    if (await options.leases.take(applicationId)) await options.acquired(applicationId)
  }

  const route = async (request: IncomingMessage): Promise<Route> => {
    const header = request.headers[RELAY_HEADER]
    if (header !== undefined) {
      const client = String(request.headers[RELAY_CLIENT_HEADER] ?? '')
      const valid =
        typeof header === 'string' &&
        verify(header, { method: request.method ?? 'GET', path: request.url ?? '/', client })
      if (!valid) return { refused: 403 }
      setRelayedClient(request, client)
      // Served here whatever happens; a lease given up since the relay left is taken back if free.
      const relayedFor = await options.applicationOf(request)
      if (relayedFor && !options.leases.holds(relayedFor)) await takeIfFree(relayedFor)
      return { local: true }
    }
    const applicationId = await options.applicationOf(request)
    if (!applicationId || options.leases.holds(applicationId)) return { local: true }
    for (let attempt = 0; attempt < 2; attempt++) {
      const taken = await options.leases.take(applicationId)
      // No such application: the route answers it (a 404).
      if (taken === undefined) return { local: true }
      if (taken) {
        await options.acquired(applicationId)
        return { local: true }
      }
      const ownerUrl = await options.leases.ownerOf(applicationId)
      if (ownerUrl) return { local: false, ownerUrl }
      // The lease expired or its owner left between the two statements: try once more.
    }
    return { refused: 503 }
  }

  const outgoingHeaders = (request: IncomingMessage, upgrading: boolean) => {
    const headers = forwardedHeaders(request, upgrading)
    const client = request.socket.remoteAddress ?? ''
    headers[RELAY_CLIENT_HEADER] = client
    headers[RELAY_HEADER] = signRelay(options.key, {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      instanceId: options.instanceId,
      client,
    })
    return headers
  }

  const refuse = (response: ServerResponse, status: number) => {
    response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '1' })
    response.end(
      JSON.stringify({
        error: status === 403 ? 'Forbidden' : 'The app is moving between instances, try again',
      }),
    )
  }

  return {
    request: (request: IncomingMessage, response: ServerResponse, serveHere: () => void) => {
      route(request).then(
        (decided) => {
          if ('refused' in decided) return refuse(response, decided.refused)
          if (decided.local) return serveHere()
          relayRequest(request, response, decided.ownerUrl, outgoingHeaders(request, false))
        },
        (error: Error) => {
          console.error('[cluster] finding the owner of a request failed:', error.message)
          refuse(response, 503)
        },
      )
    },
    upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer, serveHere: () => void) => {
      route(request).then(
        (decided) => {
          if ('refused' in decided) {
            socket.end(`HTTP/1.1 ${decided.refused} Refused\r\nconnection: close\r\n\r\n`)
            return
          }
          if (decided.local) return serveHere()
          relayUpgrade(request, socket, head, decided.ownerUrl, outgoingHeaders(request, true))
        },
        () => socket.destroy(),
      )
    },
  }
}
