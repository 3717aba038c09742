import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { getRequestListener } from '@hono/node-server'
import type { Origins } from './origins.ts'

/** A host the server answers at the node level: previews and deployed apps. */
type NodeHost = {
  handle: (request: IncomingMessage, response: ServerResponse, slug: string) => Promise<void>
}

type NodeHandlersInput = {
  app: { fetch: (request: Request) => Response | Promise<Response> }
  origins: Origins
  previewHost: NodeHost & {
    upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer, slug: string) => Promise<void>
  }
  appsHost: NodeHost
  /** Several instances: requests about another instance's box go to it (decision 033). */
  relay?: {
    request: (request: IncomingMessage, response: ServerResponse, serveHere: () => void) => void
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
  const request = (request: IncomingMessage, response: ServerResponse) => {
    const host = request.headers.host ?? ''
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
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const host = request.headers.host ?? ''
    const slug = origins.slugOf(host)
    if (origins.hostKind(host) !== 'preview' || !slug) {
      socket.destroy()
      return
    }
    previewHost.upgrade(request, socket, head, slug).catch(() => socket.destroy())
  }
  if (!relay) return { request, upgrade }
  return {
    request: (incoming: IncomingMessage, response: ServerResponse) =>
      relay.request(incoming, response, () => void request(incoming, response)),
    upgrade: (incoming: IncomingMessage, socket: Duplex, head: Buffer) =>
      relay.upgrade(incoming, socket, head, () => upgrade(incoming, socket, head)),
  }
}
