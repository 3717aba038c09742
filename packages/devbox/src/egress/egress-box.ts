import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { containFailure } from './contain-failure.ts'
import type { EgressProxyState } from './egress-proxy-state.ts'

/** One box's proxy: what its handlers share while its socket is served (listen-for-box.ts). */
export type EgressBox = {
  proxy: EgressProxyState
  boxId: string
  /** Open connections, destroyed when the box's proxy closes. */
  sockets: Set<Duplex>
  /** Answers the box's requests to sprout.internal; without it the name is refused like any other. */
  internal: ((request: IncomingMessage, response: ServerResponse) => void) | undefined
  /** Requests to sprout.internal, from the plain HTTP proxy or from inside a CONNECT tunnel. */
  internalServer: http.Server
}

/** A box's proxy; `internal` answers its sprout.internal requests, if anything does. */
export function createEgressBox(
  proxy: EgressProxyState,
  boxId: string,
  internal: EgressBox['internal'],
): EgressBox {
  const box: EgressBox = {
    proxy,
    boxId,
    sockets: new Set(),
    internal,
    internalServer: http.createServer(),
  }
  box.internalServer.on('request', (request, response) => {
    guardRequest(box, 'internal', response, () =>
      internal ? internal(request, response) : response.destroy(),
    )
  })
  box.internalServer.on('clientError', (error, socket) => refuseMalformed(box, error, socket))
  return box
}

export function trackSocket(box: EgressBox, socket: Duplex) {
  box.sockets.add(socket)
  socket.once('close', () => box.sockets.delete(socket))
}

/** Logs the refusal and answers the text the box's tool shows. */
export function refuseHost(box: EgressBox, boxHost: string, reason: string) {
  box.proxy.logger.info('Egress refused', { boxId: box.boxId, host: boxHost, reason })
  return `Sprout's egress proxy refused ${boxHost}: ${reason}\n`
}

export function logHandlerFailure(box: EgressBox, handler: string, error: unknown) {
  box.proxy.logger.error('Egress proxy handler failed', {
    boxId: box.boxId,
    handler,
    error: error instanceof Error ? error.message : String(error),
  })
}

/** Runs a request's handler; a fault answers 500 (or cuts the answer) on that request only. */
export function guardRequest(
  box: EgressBox,
  handler: string,
  response: ServerResponse,
  run: () => unknown,
) {
  containFailure(run, (error) => {
    logHandlerFailure(box, handler, error)
    if (response.headersSent) return response.destroy()
    response.writeHead(500, { 'content-type': 'text/plain', connection: 'close' })
    response.end(`Sprout's egress proxy could not handle this request.\n`)
  })
}

export function guardSocket(box: EgressBox, socket: Duplex, handler: string) {
  socket.on('error', (error) => {
    box.proxy.logger.info('Egress connection failed', {
      boxId: box.boxId,
      handler,
      error: error.message,
    })
    socket.destroy()
  })
}

export function refuseMalformed(box: EgressBox, error: Error, socket: Duplex) {
  box.proxy.logger.info('Egress request malformed', { boxId: box.boxId, error: error.message })
  if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
  else socket.destroy()
}
