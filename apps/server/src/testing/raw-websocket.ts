import { randomBytes } from 'node:crypto'
import net from 'node:net'

/** A minimal WebSocket client over a raw socket, so the Host header can name the preview. */
export async function openWebSocket(
  port: number,
  host: string,
  cookie: string,
  onText: (text: string) => void,
) {
  return new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let handshakeDone = false
    let buffer = Buffer.alloc(0)
    socket.on('connect', () => {
      socket.write(
        [
          'GET /?token=x HTTP/1.1',
          `Host: ${host}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Protocol: vite-hmr',
          ...(cookie ? [`Cookie: ${cookie}`] : []),
          '',
          '',
        ].join('\r\n'),
      )
    })
    socket.on('data', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data])
      if (!handshakeDone) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = buffer.subarray(0, end).toString()
        buffer = buffer.subarray(end + 4)
        if (!head.startsWith('HTTP/1.1 101')) {
          socket.destroy()
          return reject(new Error(head.split('\r\n')[0]))
        }
        handshakeDone = true
        resolve(socket)
      }
      while (buffer.length >= 2) {
        let length = (buffer[1] ?? 0) & 0x7f
        let offset = 2
        if (length === 126) {
          length = buffer.readUInt16BE(2)
          offset = 4
        }
        if (buffer.length < offset + length) return
        onText(buffer.subarray(offset, offset + length).toString('utf8'))
        buffer = buffer.subarray(offset + length)
      }
    })
    socket.on('error', reject)
    socket.on('close', () => {
      if (!handshakeDone) reject(new Error('closed before the handshake'))
    })
  })
}
