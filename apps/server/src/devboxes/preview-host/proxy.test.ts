import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PREVIEW_COOKIE } from '../hand-off/preview-session.ts'
import { proxyHttp } from './proxy.ts'

type Seen = { rawHeaders: string[]; body: string }

/** A real upstream on a Unix socket (as a box's bridge is) and a real server proxying to it. */
describe('proxyHttp', () => {
  let folder: string
  let upstream: http.Server
  let proxy: http.Server
  let port: number
  const seen: Seen[] = []

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-proxy-'))
    const socketPath = path.join(folder, 'upstream.sock')
    upstream = http.createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString()
      })
      request.on('end', () => {
        seen.push({ rawHeaders: request.rawHeaders, body })
        const page = '<html><head></head><body>page</body></html>'
        if (request.url === '/gzip') {
          response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
          return response.end(gzipSync(page))
        }
        if (request.url === '/cut') {
          // The server dies half-way through the page.
          response.writeHead(200, { 'content-type': 'text/html', 'content-length': '1000' })
          response.write(page)
          return setImmediate(() => response.socket?.destroy())
        }
        response.writeHead(200, { 'content-type': 'text/html', 'x-upstream': 'yes' })
        response.end(page)
      })
    })
    await new Promise<void>((resolve) => upstream.listen(socketPath, resolve))
    proxy = http.createServer((request, response) =>
      proxyHttp(request, response, { socketPath }, { injectIntoPages: '<script>tag</script>' }),
    )
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    port = (proxy.address() as AddressInfo).port
  })
  afterAll(async () => {
    proxy.closeAllConnections()
    upstream.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
    await new Promise((resolve) => upstream.close(resolve))
    await rm(folder, { recursive: true, force: true })
  })

  /** Sends raw header lines (repeated names stay repeated) and returns what the upstream saw. */
  const send = (method: string, headers: string[], body?: string, requestPath = '/page?x=1') =>
    new Promise<{ seen: Seen; status: number; answer: string; answerHeaders: string[] }>(
      (resolve, reject) => {
        const request = http.request(
          { host: '127.0.0.1', port, method, path: requestPath, headers, agent: false },
          (response) => {
            let answer = ''
            response.on('data', (chunk: Buffer) => {
              answer += chunk.toString()
            })
            response.on('end', () =>
              resolve({
                seen: seen.at(-1) as Seen,
                status: response.statusCode ?? 0,
                answer,
                answerHeaders: response.rawHeaders,
              }),
            )
          },
        )
        request.on('error', reject)
        request.end(body)
      },
    )

  const values = (rawHeaders: string[], name: string) =>
    rawHeaders.filter(
      (_, index) => index % 2 === 1 && rawHeaders[index - 1]?.toLowerCase() === name,
    )

  it("never passes Sprout's cookie on, from any Cookie line, and keeps the app's own", async () => {
    const { seen } = await send('GET', [
      'Host',
      'my-app.preview.localhost:3000',
      'Cookie',
      `theme=dark; ${PREVIEW_COOKIE}=secret.value; lang=en`,
      'Cookie',
      `${PREVIEW_COOKIE}=secret.value`,
      'X-Forwarded-Host',
      'evil.example',
      'Accept-Encoding',
      'gzip',
    ])
    const headerText = seen.rawHeaders.join('\n')
    expect(headerText).not.toContain('secret.value')
    expect(values(seen.rawHeaders, 'cookie')).toEqual(['theme=dark; lang=en'])
    // Sprout sets these itself: the client's X-Forwarded-Host is not passed on.
    expect(values(seen.rawHeaders, 'x-forwarded-host')).toEqual(['my-app.preview.localhost:3000'])
    expect(values(seen.rawHeaders, 'x-forwarded-proto')).toEqual(['http'])
    expect(values(seen.rawHeaders, 'host')).toEqual(['localhost'])
    // A page is rewritten, so it is asked for uncompressed.
    expect(values(seen.rawHeaders, 'accept-encoding')).toEqual(['identity'])
  })

  it('drops hop-by-hop headers and answers with the upstream headers and the reporter tag', async () => {
    const { seen, status, answer, answerHeaders } = await send('GET', [
      'Host',
      'my-app.preview.localhost:3000',
      'TE',
      'trailers',
      'Proxy-Authorization',
      'Basic c2VjcmV0',
      'Keep-Alive',
      'timeout=5',
    ])
    expect(values(seen.rawHeaders, 'te')).toEqual([])
    expect(values(seen.rawHeaders, 'proxy-authorization')).toEqual([])
    expect(values(seen.rawHeaders, 'keep-alive')).toEqual([])
    expect(status).toBe(200)
    expect(values(answerHeaders, 'x-upstream')).toEqual(['yes'])
    expect(answer).toContain('<script>tag</script>')
  })

  it('puts the tag into a compressed page, and cuts the answer off when the page is cut off', async () => {
    const compressed = await send('GET', ['Host', 'h'], undefined, '/gzip')
    expect(compressed.answer).toBe(
      '<html><head><script>tag</script></head><body>page</body></html>',
    )
    expect(values(compressed.answerHeaders, 'content-encoding')).toEqual([])
    await expect(send('GET', ['Host', 'h'], undefined, '/cut')).rejects.toThrow()
  })

  it('passes request bodies on, declared or chunked', async () => {
    const declared = await send('POST', ['Host', 'h', 'Content-Length', '5'], 'hello')
    expect(declared.seen.body).toBe('hello')
    const chunked = await send('POST', ['Host', 'h', 'Transfer-Encoding', 'chunked'], 'streamed')
    expect(chunked.seen.body).toBe('streamed')
    expect(values(chunked.seen.rawHeaders, 'cookie')).toEqual([])
  })
})
