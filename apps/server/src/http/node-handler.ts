import type http from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { getRequestListener } from '@hono/node-server'
import { internalHostname } from '@sprout/devbox/egress/sprout-internal.ts'
import type { Origins } from './origins.ts'

const isInternalHost = (host: string) =>
  host.toLowerCase().replace(/:\d+$/, '') === internalHostname

/** Serves a request here through a tunnel to its box's owner, or `relayed` (the relay's, decision 042). */
type ServeTunnelled = (agent: http.Agent, relayed: () => void) => void

/** A host the server answers at the node level: previews and deployed apps. */
type NodeHost = {
  handle: (request: IncomingMessage, response: ServerResponse, slug: string) => Promise<void>
}

type NodeHandlersInput = {
  app: { fetch: (request: Request) => Response | Promise<Response> }
  origins: Origins
  previewHost: NodeHost & {
    upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer, slug: string) => Promise<void>
    handleTunnelled: (
      request: IncomingMessage,
      response: ServerResponse,
      slug: string,
      ...tunnel: Parameters<ServeTunnelled>
    ) => Promise<void>
  }
  appsHost: NodeHost
  /** Pods for boxes: their requests to sprout.internal, through the egress proxy (decision 039). */
  internalHost?: { handle: (request: IncomingMessage, response: ServerResponse) => void }
  /** Several instances: requests about another instance's box go to it (decision 033). */
  relay?: {
    request: (
      request: IncomingMessage,
      response: ServerResponse,
      serveHere: () => void,
      serveTunnelled?: ServeTunnelled,
    ) => void
    upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer, serveHere: () => void) => void
  }
}

/**
 * One HTTP server, routed by Host: previews and deploys are handled at the node level (streamed
 * proxying and WebSocket upgrades), everything else by the Hono app.
 */
export function createNodeHandlers({
  app,
  origins,
  previewHost,
  appsHost,
  internalHost,
  relay,
}: NodeHandlersInput) {
  const product = getRequestListener(app.fetch)
  const failed = (response: ServerResponse) => (error: unknown) => {
    console.error('[server] preview or apps request failed:', error)
    // Half an answer already left: cut it off rather than append an error to it.
    if (response.headersSent) return void response.destroy()
    response.writeHead(500, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ error: 'An error occurred' }))
  }
  const dispatch = (request: IncomingMessage, response: ServerResponse) => {
    const host = request.headers.host ?? ''
    if (internalHost && isInternalHost(host)) return internalHost.handle(request, response)
    const kind = origins.hostKind(host)
    if (kind === 'product') return product(request, response)
    const slug = origins.slugOf(host)
    if (!slug) {
      response.writeHead(404, { 'content-type': 'text/plain' })
      return response.end('Not found')
    }
    const handled =
      kind === 'preview'
        ? previewHost.handle(request, response, slug)
        : appsHost.handle(request, response, slug)
    handled.catch(failed(response))
  }
  const dispatchUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const host = request.headers.host ?? ''
    const slug = origins.slugOf(host)
    if (origins.hostKind(host) !== 'preview' || !slug) {
      socket.destroy()
      return
    }
    previewHost.upgrade(request, socket, head, slug).catch(() => socket.destroy())
  }
  // One instance: nothing in front (docs/decisions/033-box-leases-and-relay.md).
  if (!relay) return { request: dispatch, upgrade: dispatchUpgrade }
  // A preview's modules of another instance's box go to its dev server through a tunnel (decision 042).
  const tunnelled = (
    request: IncomingMessage,
    response: ServerResponse,
  ): ServeTunnelled | undefined => {
    const host = request.headers.host ?? ''
    const slug = origins.slugOf(host)
    if (!slug || origins.hostKind(host) !== 'preview') return undefined
    return (agent, relayed) =>
      void previewHost
        .handleTunnelled(request, response, slug, agent, relayed)
        .catch(failed(response))
  }
  return {
    request: (request: IncomingMessage, response: ServerResponse) =>
      relay.request(
        request,
        response,
        () => void dispatch(request, response),
        tunnelled(request, response),
      ),
    upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      relay.upgrade(request, socket, head, () => dispatchUpgrade(request, socket, head)),
  }
}
