import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { proxyHttp } from './proxy.ts'

/**
 * A dev server that closes a kept-alive connection just as the proxy sends its next request on
 * it: the race between its keep-alive timeout and the proxy's, which under load left a page with
 * one module answered 502 and nothing shown.
 */
describe('proxyHttp on a kept-alive connection the dev server closed', () => {
  let folder: string
  let upstream: net.Server
  let proxy: http.Server
  let port: number
  let connections = 0

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-proxy-reused-'))
    const socketPath = path.join(folder, 'upstream.sock')
    // Each connection answers its first request and drops the second unanswered.
    upstream = net.createServer((socket) => {
      connections += 1
      let requests = 0
      socket.on('data', (data) => {
        if (!data.includes('\r\n\r\n')) return
        requests += 1
        if (requests > 1) return void socket.destroy()
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok')
      })
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => upstream.listen(socketPath, resolve))
    proxy = http.createServer((request, response) => proxyHttp(request, response, { socketPath }))
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    port = (proxy.address() as AddressInfo).port
  })
  afterAll(async () => {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
    await new Promise((resolve) => upstream.close(resolve))
    await rm(folder, { recursive: true, force: true })
  })

  const send = (method: string, body?: string) =>
    new Promise<{ status: number; answer: string }>((resolve, reject) => {
      const headers = body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }
      const request = http.request(
        { host: '127.0.0.1', port, method, path: '/module.js', headers, agent: false },
        (response) => {
          let answer = ''
          response.on('data', (chunk: Buffer) => {
            answer += chunk.toString()
          })
          response.on('end', () => resolve({ status: response.statusCode ?? 0, answer }))
        },
      )
      request.on('error', reject)
      request.end(body)
    })

  it('sends a request without a body again, once, on a new connection', async () => {
    expect(await send('GET')).toEqual({ status: 200, answer: 'ok' })
    expect(await send('GET')).toEqual({ status: 200, answer: 'ok' })
    expect(connections).toBe(2)
  })

  it('never sends a request with a body twice: it is answered 502', async () => {
    const before = connections
    const answered = await send('POST', 'entry')
    expect(answered.status).toBe(502)
    expect(answered.answer).toContain('dev server is not answering')
    expect(connections).toBe(before)
  })
})
