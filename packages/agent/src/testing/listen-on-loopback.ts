/** TEST FIXTURE: an HTTP server on 127.0.0.1 at a free port whose close also ends open sockets. */
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type LoopbackServer = { port: number; close: () => Promise<void> }

export async function listenOnLoopback(listener: RequestListener): Promise<LoopbackServer> {
  const sockets = new Set<Socket>()
  const server = createServer(listener)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
