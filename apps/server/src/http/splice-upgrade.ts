import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'

/**
 * Joins a client's upgraded socket to the upstream's once the upstream answered the upgrade: its
 * status line and headers as sent, then the bytes either side read early, then both ways.
 */
export function spliceUpgrade(input: {
  socket: Duplex
  head: Buffer
  answer: IncomingMessage
  upstreamSocket: Duplex
  upstreamHead: Buffer
}) {
  const { socket, head, answer, upstreamSocket, upstreamHead } = input
  const lines = [
    `HTTP/1.1 ${answer.statusCode ?? 101} ${answer.statusMessage ?? 'Switching Protocols'}`,
  ]
  for (let index = 0; index < answer.rawHeaders.length; index += 2) {
    lines.push(`${answer.rawHeaders[index]}: ${answer.rawHeaders[index + 1]}`)
  }
  socket.write(`${lines.join('\r\n')}\r\n\r\n`)
  if (upstreamHead.length > 0) socket.write(upstreamHead)
  if (head.length > 0) upstreamSocket.write(head)
  upstreamSocket.pipe(socket).pipe(upstreamSocket)
}
