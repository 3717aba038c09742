import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Browser, chromium } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { proxyHttp } from '../../devboxes/preview-host/proxy.ts'
import type { ErrorReporting } from '../service.ts'
import { handleReporterRequest } from './routes.ts'
import { reporterScriptTag } from './service.ts'

const dsn = 'http://0123456789abcdef0123456789abcdef@localhost:3000/7'

/** The app's page: every kind of failure the reporter must send, none of it touching Sprout. */
const page = `<!doctype html><html><head><title>App</title></head><body>
<script type="module" src="/src/missing.tsx"></script>
<script>Promise.reject(new Error('Rejected while the page parses'))</script>
<script>throw new Error('Thrown while the page parses')</script>
<script type="module">Promise.reject(new Error('Rejected in a module'))</script>
<script>
  console.error('Console said no')
  setTimeout(() => Promise.reject(new Error('Rejected promise')), 20)
  setTimeout(() => { throw new Error('Boom from the preview') })
  // What Vite's client does with a compile error: its overlay element, shadow root open.
  customElements.define('vite-error-overlay', class extends HTMLElement {
    constructor() {
      super()
      this.attachShadow({ mode: 'open' }).innerHTML =
        '<pre class="message-body">Transform failed with 1 error:\\n/src/App.tsx:3:7: ERROR: Expected ";" but found "x"</pre><pre class="file">/src/App.tsx:3:7</pre>'
    }
  })
  setTimeout(() => document.body.appendChild(document.createElement('vite-error-overlay')), 50)
</script></body></html>`

type Envelope = { header: Record<string, unknown>; events: Record<string, unknown>[] }

function parseEnvelope(body: Buffer): Envelope {
  const lines = body.toString('utf8').split('\n').filter(Boolean)
  const header = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>
  const events: Record<string, unknown>[] = []
  for (let index = 1; index + 1 < lines.length; index += 2) {
    const item = JSON.parse(lines[index] ?? '{}') as { type?: string }
    if (item.type === 'event') events.push(JSON.parse(lines[index + 1] ?? '{}'))
  }
  return { header, events }
}

/** What an event says, in one line: the exception's `type: value`, or its message. */
function summary(event: Record<string, unknown>): string {
  const exception = (event.exception as { values?: { type?: string; value?: string }[] })
    ?.values?.[0]
  if (exception)
    return exception.type ? `${exception.type}: ${exception.value}` : `${exception.value}`
  return String((event.logentry as { message?: string })?.message ?? event.message ?? '')
}

describe('the injected reporter in a real browser', () => {
  const received: { applicationId: string; envelope: Envelope }[] = []
  const reporting: ErrorReporting = {
    maxBodyBytes: 1_000_000,
    dsnFor: async () => dsn,
    forgetDsns: () => {},
    ingest: async ({ applicationId, body }) => {
      received.push({ applicationId, envelope: parseEnvelope(body) })
      return { status: 200, body: '{}' }
    },
  }
  const upstream = http.createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' })
      return response.end(page)
    }
    response.writeHead(404, { 'content-type': 'text/plain' })
    response.end('missing')
  })
  const host = http.createServer((request, response) => {
    void (async () => {
      if (await handleReporterRequest(request, response, 'app-1', reporting)) return
      const target = { host: '127.0.0.1', port: (upstream.address() as AddressInfo).port }
      proxyHttp(request, response, target, {
        injectIntoPages: reporterScriptTag({ dsn, environment: 'preview' }),
      })
    })()
  })
  let browser: Browser
  let base: string

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    host.close()
    upstream.close()
  })

  it('sends uncaught errors, rejections, console.error, failed modules and Vite overlays to the tunnel', async () => {
    const context = await browser.newContext()
    const tab = await context.newPage()
    await tab.goto(`${base}/`)
    const expected = [
      'Error: Boom from the preview',
      'Error: Rejected promise',
      'Error: Rejected while the page parses',
      'Error: Thrown while the page parses',
      'Error: Rejected in a module',
      'Console said no',
      `Failed to load module script ${base}/src/missing.tsx`,
      'ViteCompileError: Transform failed with 1 error:',
    ]
    const summaries = () => received.flatMap(({ envelope }) => envelope.events.map(summary))
    await expect
      .poll(() => expected.filter((text) => !summaries().includes(text)), { timeout: 20_000 })
      .toEqual([])
    expect(received.every(({ applicationId }) => applicationId === 'app-1')).toBe(true)
    expect(received[0]?.envelope.header.dsn).toBe(dsn)
    const events = received.flatMap(({ envelope }) => envelope.events)
    const boom = events.find((event) => summary(event) === 'Error: Boom from the preview')
    expect(boom?.environment).toBe('preview')
    const exception = boom?.exception as
      | { values: { stacktrace?: { frames: { filename: string }[] } }[] }
      | undefined
    const frames = exception?.values[0]?.stacktrace?.frames
    expect(frames?.at(-1)?.filename).toBe(`${base}/`)
    const overlay = events.find((event) => summary(event).startsWith('ViteCompileError'))
    expect(JSON.stringify(overlay?.contexts)).toContain('/src/App.tsx:3:7')
    await context.close()
  }, 60_000)

  it('tells the builder around the preview that an error is on its way, and nothing of it', async () => {
    const context = await browser.newContext()
    const tab = await context.newPage()
    await tab.setContent(`<script>
      window.told = []
      window.addEventListener('message', (event) => window.told.push([event.origin, event.data]))
    </script><iframe src="${base}/"></iframe>`)
    const told = () => tab.evaluate(() => (window as unknown as { told: unknown[] }).told)
    await expect.poll(told, { timeout: 20_000 }).toContainEqual([base, 'sprout-reporter:error'])
    expect(new Set((await told()).map((entry) => JSON.stringify(entry)))).toEqual(
      new Set([JSON.stringify([base, 'sprout-reporter:error'])]),
    )
    await context.close()
  }, 60_000)

  it('serves the reporter compressed with an etag, and refuses envelopes sent with GET', async () => {
    const script = await fetch(`${base}/__sprout/reporter.js`, {
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toContain('javascript')
    const etag = script.headers.get('etag') ?? ''
    const again = await fetch(`${base}/__sprout/reporter.js`, {
      headers: { 'if-none-match': etag },
    })
    expect(again.status).toBe(304)
    expect((await fetch(`${base}/__sprout/envelope`)).status).toBe(405)
  })
})
