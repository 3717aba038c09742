import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { proxyHttp } from '../../devboxes/preview-host/proxy.ts'
import { INJECTED_PAGE_MAX_BYTES, injectIntoHtml, reporterScriptTag } from './service.ts'

const page = '<!doctype html><html><head lang="en"><title>App</title></head><body></body></html>'
const tag = reporterScriptTag({ dsn: 'http://abc@localhost:3000/7', environment: 'preview' })

/**
 * The dev server's stand-in: pages (plain and gzipped), a script, a 404 page; and a hostile app's
 * pages: one without end and one that decompresses to 64 MiB.
 */
function upstreamServer() {
  const seenEncodings: string[] = []
  const server = http.createServer((request, response) => {
    seenEncodings.push(request.headers['accept-encoding'] ?? '')
    const html = { 'content-type': 'text/html', etag: 'W/"upstream"' }
    if (request.url === '/') {
      response.writeHead(200, { ...html, 'content-length': Buffer.byteLength(page) })
      return response.end(page)
    }
    if (request.url === '/gzipped') {
      const body = gzipSync(page)
      response.writeHead(200, {
        ...html,
        'content-encoding': 'gzip',
        'content-length': body.length,
      })
      return response.end(body)
    }
    if (request.url === '/endless') {
      response.writeHead(200, html)
      const chunk = Buffer.from(`<p>${'x'.repeat(64 * 1024)}</p>`)
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once('drain', pump)
      }
      return pump()
    }
    if (request.url === '/bomb') {
      const body = gzipSync(Buffer.alloc(64 * 1024 * 1024, 32))
      response.writeHead(200, {
        ...html,
        'content-encoding': 'gzip',
        'content-length': body.length,
      })
      return response.end(body)
    }
    if (request.url === '/main.js') {
      response.writeHead(200, { 'content-type': 'text/javascript', etag: '"js"' })
      return response.end('console.log("<head>")')
    }
    response.writeHead(404, html)
    response.end(page)
  })
  return { server, seenEncodings }
}

describe('the reporter in proxied pages', () => {
  const upstream = upstreamServer()
  const proxy = http.createServer((request, response) => {
    const address = upstream.server.address() as AddressInfo
    proxyHttp(
      request,
      response,
      { host: '127.0.0.1', port: address.port },
      {
        injectIntoPages: tag,
      },
    )
  })
  let base: string

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve))
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  })
  afterAll(() => {
    proxy.close()
    upstream.server.close()
  })

  it('puts the tag right after <head>, with the new length and no etag', async () => {
    const response = await fetch(`${base}/`, { headers: { 'accept-encoding': 'gzip, br' } })
    const body = await response.text()
    expect(response.status).toBe(200)
    expect(body).toBe(injectIntoHtml(page, tag))
    expect(body).toContain(`<head lang="en">${tag}<title>`)
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)))
    expect(response.headers.get('etag')).toBeNull()
    // The page was asked for uncompressed, whatever the browser accepts.
    expect(upstream.seenEncodings.at(-1)).toBe('identity')
  })

  it('decodes a page the upstream compressed anyway', async () => {
    const response = await fetch(`${base}/gzipped`)
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(await response.text()).toBe(injectIntoHtml(page, tag))
  })

  it('passes a page without end on untouched past its cap, and cuts off a page bomb', async () => {
    const endless = await fetch(`${base}/endless`)
    expect(endless.status).toBe(200)
    const reader = (endless.body as ReadableStream<Uint8Array>).getReader()
    let received = 0
    while (received <= INJECTED_PAGE_MAX_BYTES) received += (await reader.read()).value?.length ?? 0
    await reader.cancel()
    const bomb = await fetch(`${base}/bomb`).then(
      (response) => response.text(),
      (error: Error) => error,
    )
    expect(bomb).toBeInstanceOf(Error)
    // The proxy is up and adds its tag as before.
    expect(await (await fetch(`${base}/`)).text()).toBe(injectIntoHtml(page, tag))
  })

  it('leaves scripts, error pages and HEAD requests as they are', async () => {
    const script = await fetch(`${base}/main.js`)
    expect(await script.text()).toBe('console.log("<head>")')
    expect(script.headers.get('etag')).toBe('"js"')
    const missing = await fetch(`${base}/nothing`)
    expect(missing.status).toBe(404)
    expect(await missing.text()).toBe(page)
    const head = await fetch(`${base}/`, { method: 'HEAD' })
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(page)))
  })

  it('writes a tag that stays one attribute whatever the DSN holds, and pages without <head>', () => {
    const odd = reporterScriptTag({ dsn: 'http://a"><script>x@h/1', environment: 'production' })
    expect(odd).toContain('data-dsn="http://a&quot;>&lt;script>x@h/1"')
    expect(injectIntoHtml('<p>hi</p>', tag)).toBe(`${tag}<p>hi</p>`)
    expect(injectIntoHtml('<HEAD>', tag)).toBe(`<HEAD>${tag}`)
    expect(injectIntoHtml('<header></header>', tag)).toBe(`${tag}<header></header>`)
    expect(injectIntoHtml('<!doctype html><title>x</title>', tag)).toBe(
      `<!doctype html>${tag}<title>x</title>`,
    )
    expect(injectIntoHtml('<!DOCTYPE html><html lang="en"><body>', tag)).toBe(
      `<!DOCTYPE html><html lang="en">${tag}<body>`,
    )
  })
})
