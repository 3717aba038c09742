import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../logger.ts'
import { createEgressProxy, type InternalRequestHandler } from './egress-proxy.ts'

type Seen = { boxId: string; method: string; url: string; body: string }

/** One raw exchange on the proxy's socket; `tunnelled` is sent once CONNECT was answered 200. */
function exchange(socketPath: string, first: string, tunnelled?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ path: socketPath })
    let answer = ''
    let sent = false
    socket.once('connect', () => socket.write(first))
    socket.on('data', (data) => {
      answer += data
      if (tunnelled && !sent && answer.includes('\r\n\r\n') && answer.startsWith('HTTP/1.1 200')) {
        sent = true
        answer = ''
        socket.write(tunnelled)
      }
    })
    socket.once('end', () => resolve(answer))
    socket.once('error', reject)
  })
}

const post = (target: string, body: string) =>
  `POST ${target} HTTP/1.1\r\nHost: sprout.internal\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`

describe('sprout.internal in the egress proxy', () => {
  let folder: string
  const seen: Seen[] = []
  const handler: InternalRequestHandler = (boxId, request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      seen.push({ boxId, method: request.method ?? '', url: request.url ?? '', body })
      response.writeHead(200, { 'content-type': 'application/json', connection: 'close' })
      response.end('{"id":"ok"}')
    })
  }

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-internal-'))
  })
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  it('hands plain HTTP and CONNECT to port 80 to the handler with the calling box, even with DEVBOX_EGRESS=none', async () => {
    const proxy = createEgressProxy({
      policy: 'none',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
      internal: handler,
    })
    const socketPath = path.join(folder, 'a.sock')
    const close = await proxy.listen(socketPath, 'box-a')
    try {
      const plain = await exchange(
        socketPath,
        post('http://sprout.internal/api/7/envelope/', 'one'),
      )
      expect(plain).toMatch(/^HTTP\/1\.1 200/)
      expect(plain).toContain('{"id":"ok"}')
      const tunnelled = await exchange(
        socketPath,
        'CONNECT sprout.internal:80 HTTP/1.1\r\nHost: sprout.internal:80\r\n\r\n',
        post('/api/7/envelope/?sentry_key=k', 'two'),
      )
      expect(tunnelled).toMatch(/^HTTP\/1\.1 200/)
      expect(tunnelled).toContain('{"id":"ok"}')
      expect(seen).toEqual([
        { boxId: 'box-a', method: 'POST', url: '/api/7/envelope/', body: 'one' },
        { boxId: 'box-a', method: 'POST', url: '/api/7/envelope/?sentry_key=k', body: 'two' },
      ])
    } finally {
      await close()
    }
  })

  it('refuses every other port of the name, by CONNECT or plain HTTP, reaching nothing', async () => {
    seen.length = 0
    const proxy = createEgressProxy({
      policy: 'open',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
      internal: handler,
      lookup: async () => ['127.0.0.1'],
    })
    const socketPath = path.join(folder, 'b.sock')
    const close = await proxy.listen(socketPath, 'box-b')
    try {
      const tls = await exchange(socketPath, 'CONNECT sprout.internal:443 HTTP/1.1\r\n\r\n')
      expect(tls).toMatch(/^HTTP\/1\.1 403/)
      expect(tls).toContain('only sprout.internal:80')
      const otherPort = await exchange(
        socketPath,
        post('http://sprout.internal:3000/api/7/envelope/', 'x'),
      )
      expect(otherPort).toMatch(/^HTTP\/1\.1 403/)
      const httpsUrl = await exchange(socketPath, post('https://sprout.internal/', 'x'))
      expect(httpsUrl).toMatch(/^HTTP\/1\.1 403/)
      expect(seen).toEqual([])
    } finally {
      await close()
    }
  })

  it('without a handler the name is refused like any other that does not resolve', async () => {
    const proxy = createEgressProxy({
      policy: 'open',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
      lookup: async () => {
        throw new Error('ENOTFOUND')
      },
    })
    const socketPath = path.join(folder, 'c.sock')
    const close = await proxy.listen(socketPath, 'box-c')
    try {
      const answer = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          { socketPath, method: 'POST', path: 'http://sprout.internal/api/7/envelope/' },
          (response) => {
            response.resume()
            resolve(response.statusCode ?? 0)
          },
        )
        request.on('error', reject)
        request.end('x')
      })
      expect(answer).toBe(403)
      expect(await exchange(socketPath, 'CONNECT sprout.internal:80 HTTP/1.1\r\n\r\n')).toMatch(
        /^HTTP\/1\.1 403/,
      )
    } finally {
      await close()
    }
  })
})
