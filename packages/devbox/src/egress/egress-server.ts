import http, { type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { handleConnect } from './connect-tunnel.ts'
import {
  type EgressBox,
  guardRequest,
  guardSocket,
  logHandlerFailure,
  refuseMalformed,
} from './egress-box.ts'
import { forwardHttp } from './forward-http.ts'

const maxOpenConnections = 256

/**
 * The proxy's HTTP server: CONNECT tunnels and plain HTTP forwarding, each request served as the
 * box `boxOf` names (one box per unix socket locally, the box a request names on Kubernetes).
 */
export function createEgressServer(
  boxOf: (request: IncomingMessage | undefined) => EgressBox,
  connections = maxOpenConnections,
) {
  const server = http.createServer((request, response) => {
    const box = boxOf(request)
    guardRequest(box, 'http', response, () => forwardHttp(box, request, response))
  })
  server.on('clientError', (error, socket) => refuseMalformed(boxOf(undefined), error, socket))
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) =>
    handleConnect(boxOf(request), request, client, head),
  )
  server.on('upgrade', (request: IncomingMessage, client: Duplex) => {
    guardSocket(boxOf(request), client, 'upgrade')
    client.end('HTTP/1.1 501 Not Implemented\r\n\r\nUse CONNECT for WebSockets.\n')
  })
  server.on('error', (error) => logHandlerFailure(boxOf(undefined), 'server', error))
  server.maxConnections = connections
  return server
}
