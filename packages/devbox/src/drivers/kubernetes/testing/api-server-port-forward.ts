import type { IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import type { PodHost } from './api-server-pod-host.ts'
import { channelSocketServer, refuseUpgrade } from './api-server-streams.ts'

/** Kubelet's WebSocket port-forward speaks v4 of the channel protocol, and nothing newer. */
const protocol = 'v4.channel.k8s.io'
const dataChannel = 0
const errorChannel = 1

/**
 * Port-forward over WebSocket as kubelet streams it (one port per socket): each channel of the
 * port (0 data, 1 error) opens with the port as two little-endian bytes, then data frames carry
 * a TCP connection to that port in the pod, here the loopback port the test kubelet published
 * for it. Either side closing ends the other.
 */
export function createPortForwardEndpoint(
  hostOf: (namespace: string, name: string) => PodHost | undefined,
) {
  const streams = channelSocketServer([protocol])

  return {
    /** Answers an upgrade of `/api/v1/namespaces/{ns}/pods/{name}/portforward?ports=…`. */
    upgrade(
      request: IncomingMessage,
      socket: Duplex,
      head: Buffer,
      namespace: string,
      name: string,
    ) {
      const url = new URL(request.url ?? '/', 'http://localhost')
      const ports = url.searchParams.getAll('ports').flatMap((value) => value.split(','))
      const port = Number(ports[0])
      const host = hostOf(namespace, name)
      if (!host) return refuseUpgrade(socket, '404 Not Found')
      const validPort = Number.isInteger(port) && port >= 1 && port <= 65535
      if (ports.length !== 1 || !validPort || !streams.offered(request)) {
        return refuseUpgrade(socket, '400 Bad Request')
      }
      streams.sockets.handleUpgrade(request, socket, head, (webSocket) =>
        forward(webSocket, host, port),
      )
    },
    close: streams.close,
  }
}

function forward(webSocket: WebSocket, host: PodHost, port: number) {
  const send = (channel: number, data: Buffer) => {
    if (webSocket.readyState === webSocket.OPEN) {
      webSocket.send(Buffer.concat([Buffer.from([channel]), data]))
    }
  }
  const portBytes = Buffer.alloc(2)
  portBytes.writeUInt16LE(port)
  send(dataChannel, portBytes)
  send(errorChannel, portBytes)
  const published = host.ports[String(port)]
  if (published === undefined) {
    send(errorChannel, Buffer.from(`an error occurred forwarding ${port}: nothing listens there`))
    webSocket.close(1000)
    return
  }
  const connection = connect({ port: published, host: '127.0.0.1', noDelay: true })
  connection.on('data', (data: Buffer) => send(dataChannel, data))
  connection.on('error', (error) => {
    send(errorChannel, Buffer.from(`an error occurred forwarding ${port}: ${error.message}`))
  })
  connection.on('close', () => webSocket.close(1000))
  webSocket.on('message', (data: Buffer, isBinary: boolean) => {
    const frame = isBinary ? data : Buffer.from(data)
    if (frame[0] === dataChannel) connection.write(frame.subarray(1))
  })
  webSocket.on('close', () => connection.end())
}
