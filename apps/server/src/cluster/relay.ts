import type http from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import {
  createTunnelEndpoint,
  isTunnelRequest,
  type TunnelEndpointOptions,
} from './dev-server-tunnel.ts'
import { createRelayRouter, type RelayRouterOptions } from './relay-route.ts'
import { RELAY_CLIENT_HEADER, RELAY_HEADER, signRelay } from './relay-signature.ts'
import { forwardedHeaders, relayRequest, relayUpgrade } from './relay-streams.ts'
import { createTunnelAgents } from './tunnel-agents.ts'

/** A refused relay is routed again every half second for up to 10 s (a stopping owner's stop). */
const refusedRetryMs = 500
const refusedRetries = 20

type RelayOptions = RelayRouterOptions & {
  instanceId: string
  devboxes: TunnelEndpointOptions['devboxes']
}

/**
 * Serves a request of another instance's box here, its dev server reached through `agent` (a
 * tunnel to the owner's box, decision 042), or calls `relayed` to send it to the owner instead.
 */
export type ServeTunnelled = (agent: http.Agent, relayed: () => void) => void

/**
 * Any instance relays a request about an application's box to the instance holding its lease
 * (docs/decisions/033-box-leases-and-relay.md): served here when this instance holds the lease
 * or takes it, else streamed both ways to the owner, signed so the owner serves it and never
 * relays it again.
 */
export function createRelay(options: RelayOptions) {
  const { route, forgetOwner } = createRelayRouter(options)
  const tunnels = createTunnelAgents({ key: options.key, instanceId: options.instanceId })
  const tunnelEndpoint = createTunnelEndpoint(options)
  // What went where, for the figures and tests (docs/performance.md).
  const counts = { relayed: 0, tunnelsServed: 0 }

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

  /**
   * Routes a request, and again when its owner refuses the connection: an owner that is stopping
   * has stopped listening and gives its leases up within seconds (decision 033), so the request
   * waits for the next owner rather than failing.
   */
  const forward = (
    request: IncomingMessage,
    response: ServerResponse,
    serveHere: () => void,
    refusalsLeft: number,
    serveTunnelled?: ServeTunnelled,
  ) => {
    route(request).then(
      (decided) => {
        if ('refused' in decided) return refuse(response, decided.refused)
        if (decided.local) return serveHere()
        const again =
          refusalsLeft > 0
            ? () => {
                forgetOwner(decided.applicationId)
                setTimeout(
                  () => forward(request, response, serveHere, refusalsLeft - 1),
                  refusedRetryMs,
                )
              }
            : undefined
        const relayed = () => {
          counts.relayed += 1
          relayRequest(request, response, decided.ownerUrl, outgoingHeaders(request, false), {
            again,
            ownerGone: () => forgetOwner(decided.applicationId),
          })
        }
        if (!serveTunnelled) return relayed()
        // Should the tunnel fail before any answer (a read: sent again safely), the long way.
        serveTunnelled(tunnels.agentFor(decided.ownerUrl, decided.applicationId), relayed)
      },
      (error: Error) => {
        console.error('[cluster] finding the owner of a request failed:', error.message)
        refuse(response, 503)
      },
    )
  }

  return {
    request: (
      request: IncomingMessage,
      response: ServerResponse,
      serveHere: () => void,
      serveTunnelled?: ServeTunnelled,
    ) => forward(request, response, serveHere, refusedRetries, serveTunnelled),
    upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer, serveHere: () => void) => {
      if (isTunnelRequest(request)) {
        counts.tunnelsServed += 1
        tunnelEndpoint(request, socket, head).catch(() => socket.destroy())
        return
      }
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
    /** Requests this instance relayed to owners the long way; tunnels other instances opened here. */
    counts: () => ({ ...counts }),
    close: () => tunnels.close(),
  }
}
