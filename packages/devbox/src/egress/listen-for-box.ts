import { chmod, rm } from 'node:fs/promises'
import http, { type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { handleConnect } from './connect-tunnel.ts'
import {
  createEgressBox,
  guardRequest,
  guardSocket,
  logHandlerFailure,
  refuseMalformed,
} from './egress-box.ts'
import type { EgressProxyState } from './egress-proxy-state.ts'
import { forwardHttp } from './forward-http.ts'

const maxOpenConnections = 256

/** Serves the proxy on a unix socket (one per box); resolves to a function that closes it. */
export async function listenForBox(
  proxy: EgressProxyState,
  socketPath: string,
  boxId: string,
): Promise<() => Promise<void>> {
  const box = createEgressBox(proxy, boxId)
  const server = http.createServer((request, response) => {
    guardRequest(box, 'http', response, () => forwardHttp(box, request, response))
  })
  server.on('clientError', (error, socket) => refuseMalformed(box, error, socket))
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) =>
    handleConnect(box, request, client, head),
  )
  server.on('upgrade', (_request: IncomingMessage, client: Duplex) => {
    guardSocket(box, client, 'upgrade')
    client.end('HTTP/1.1 501 Not Implemented\r\n\r\nUse CONNECT for WebSockets.\n')
  })
  server.maxConnections = maxOpenConnections

  await rm(socketPath, { force: true })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socketPath, () => resolve())
  })
  server.on('error', (error) => logHandlerFailure(box, 'server', error))
  await chmod(socketPath, 0o600)
  return async () => {
    for (const socket of box.sockets) socket.destroy()
    box.internalServer.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await rm(socketPath, { force: true })
  }
}
