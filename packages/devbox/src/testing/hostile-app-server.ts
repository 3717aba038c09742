import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DevServerTarget } from '../devbox-driver.ts'

/**
 * A real HTTP server on 127.0.0.1 answering as a hostile app's server may (docs/security.md
 * "Answers of an app's server"): `/endless` streams 64 KiB chunks without end, `/trickle` one
 * byte a second, `/slow-headers` never sends its headers, `/cut` ends the connection mid-answer;
 * anything else answers `ok`; `aliases` answer a path as another (`{ '/': '/endless' }`).
 * `open()` counts the answers still being sent.
 */
export async function startHostileAppServer(options: { aliases?: Record<string, string> } = {}) {
  const chunk = Buffer.alloc(64 * 1024, 'x')
  const sockets = new Set<import('node:net').Socket>()
  let open = 0
  const server = http.createServer((request, response) => {
    request.url = options.aliases?.[request.url ?? ''] ?? request.url
    open += 1
    response.on('close', () => {
      open -= 1
    })
    if (request.url?.endsWith('/endless')) {
      response.writeHead(200, { 'content-type': 'text/plain' })
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once('drain', pump)
      }
      return pump()
    }
    if (request.url?.endsWith('/trickle')) {
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.write('o')
      const timer = setInterval(() => response.write('k'), 1000)
      return response.on('close', () => clearInterval(timer))
    }
    if (request.url?.endsWith('/slow-headers')) return
    if (request.url?.endsWith('/cut')) {
      response.writeHead(200, { 'content-length': '100' })
      response.write('partial')
      return setImmediate(() => request.socket.destroy())
    }
    response.end('ok')
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const target: DevServerTarget = { host: '127.0.0.1', port }
  return {
    target,
    open: () => open,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
