import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'

/** Kubelet's streams (exec, port-forward): WebSockets speaking the first of `protocols` offered. */
export function channelSocketServer(protocols: string[]) {
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: 16 * 1024 * 1024,
    handleProtocols: (offered) => protocols.find((protocol) => offered.has(protocol)) ?? false,
  })
  return {
    sockets,
    /** Whether the upgrade offers one of the protocols (otherwise kubelet answers 400). */
    offered: (request: IncomingMessage) =>
      (request.headers['sec-websocket-protocol'] ?? '')
        .split(',')
        .some((part) => protocols.includes(part.trim())),
    close: () => {
      for (const client of sockets.clients) client.terminate()
      sockets.close()
    },
  }
}

/** An upgrade refused as the API server refuses one: its status line, no body. */
export function refuseUpgrade(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)
}
