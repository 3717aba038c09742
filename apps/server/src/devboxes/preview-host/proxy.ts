// Long file: one proxy for the preview and the apps host: headers, body limit, page injection
// and idle end of each answer, then the WebSocket tunnel.
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { targetConnection } from '@sprout/devbox/dev-server-request.ts'
import type { DevServerTarget } from '@sprout/devbox/devbox-driver.ts'
import { APP_IDENTITY_HEADER } from '@sprout/protocol/api/app-visibility.ts'
import {
  decodeBody,
  INJECTED_PAGE_MAX_BYTES,
  injectIntoHtml,
  isInjectableHtml,
} from '../../error-monitoring/reporter/service.ts'
import { spliceUpgrade } from '../../http/splice-upgrade.ts'
import { APP_COOKIE, PREVIEW_COOKIE } from '../hand-off/preview-session.ts'

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
const sproutCookiePrefixes = [`${PREVIEW_COOKIE}=`, `${APP_COOKIE}=`]
const cookieSeparator = /;\s*/
const hasSproutCookie = (cookie: string) =>
  sproutCookiePrefixes.some((prefix) => cookie.includes(prefix))

/** The answer's raw headers without hop-by-hop ones, as the flat list `writeHead` takes. */
function answerHeaders(answer: IncomingMessage): string[] {
  const raw = answer.rawHeaders
  const kept: string[] = []
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string
    if (!hopByHop.has(name.toLowerCase())) kept.push(name, raw[index + 1] as string)
  }
  return kept
}

/**
 * The request's headers for the dev server: hop-by-hop headers, Sprout's cookies and any identity
 * a client sent removed.
 */
function forwardedHeaders(
  request: IncomingMessage,
  target: DevServerTarget,
): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || hopByHop.has(name) || name === APP_IDENTITY_HEADER) continue
    headers[name] = value
  }
  // Sprout's cookies are taken out; a request without them keeps its cookies as they are.
  const cookie = request.headers.cookie
  if (cookie && hasSproutCookie(cookie)) {
    const kept = withoutSproutCookies(cookie)
    if (kept) headers.cookie = kept
    else delete headers.cookie
  }
  headers['x-forwarded-host'] = request.headers.host ?? ''
  headers['x-forwarded-proto'] = 'http'
  headers.host = upstreamHost(target)
  return headers
}

const withoutSproutCookies = (cookie: string) =>
  cookie
    .split(cookieSeparator)
    .filter((part) => !sproutCookiePrefixes.some((prefix) => part.startsWith(prefix)))
    .join('; ')

const upstreamHost = (target: DevServerTarget) =>
  'socketPath' in target ? 'localhost' : `${target.host}:${target.port}`

/** Request headers Sprout sets itself for the dev server; the client's own are not passed. */
const replaced = new Set([
  'host',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-for',
  APP_IDENTITY_HEADER,
])

/**
 * `forwardedHeaders` as the flat list `http.request` takes, built from `rawHeaders` so node skips
 * validating each through `setHeader` (docs/performance.md "API and proxies (second pass)").
 * Sprout's cookies are dropped from every `Cookie` line; `acceptEncoding` replaces the client's,
 * and `identity` is the only identity header the target gets (decision 046).
 */
function forwardedRawHeaders(
  request: IncomingMessage,
  target: DevServerTarget,
  acceptEncoding: string | undefined,
  sproutHeaders: Pick<ProxyHttpOptions, 'identity' | 'visitorAddress'>,
): string[] {
  const raw = request.rawHeaders
  const list: string[] = []
  let host: string | undefined
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string
    const value = raw[index + 1] as string
    const lower = name.toLowerCase()
    if (hopByHop.has(lower)) continue
    if (replaced.has(lower)) {
      // The first Host, as node's `request.headers.host` reads it.
      if (lower === 'host') host ??= value
      continue
    }
    if (lower === 'cookie' && hasSproutCookie(value)) {
      const kept = withoutSproutCookies(value)
      if (kept) list.push(name, kept)
      continue
    }
    if (acceptEncoding !== undefined && lower === 'accept-encoding') continue
    list.push(name, value)
  }
  list.push(
    'x-forwarded-host',
    host ?? '',
    'x-forwarded-proto',
    'http',
    'host',
    upstreamHost(target),
  )
  if (acceptEncoding !== undefined) list.push('accept-encoding', acceptEncoding)
  if (sproutHeaders.identity !== undefined) list.push(APP_IDENTITY_HEADER, sproutHeaders.identity)
  list.push('x-forwarded-for', sproutHeaders.visitorAddress ?? request.socket.remoteAddress ?? '')
  return list
}

export type ProxyHttpOptions = {
  /** A body past this many bytes (declared or streamed) is answered 413 `{ error }` instead. */
  maxBodyBytes?: number
  /** The answer when the target does not answer; the preview's text by default. */
  unavailable?: { contentType: string; body: string }
  /** Added after `<head>` of every 200 HTML page answered to a GET: the error reporter's tag. */
  injectIntoPages?: string
  /** The target did not answer, and the proxy answered 502 itself. */
  onUnavailable?: () => void
  /** No byte from the target for this long ends its answer (PROXY_IDLE_TIMEOUT_MS by default). */
  idleTimeoutMs?: number
  /** Who is calling, signed, for the app (decision 046); a client's own header never passes. */
  identity?: string
  /** The browser's address, as `x-forwarded-for` (the connection's when not given). */
  visitorAddress?: string
  /** The connections to the target: another instance's tunnel to it (decision 042). */
  agent?: http.Agent
  /**
   * The target did not answer and nothing was answered yet: this answers instead of the 502
   * (a tunnelled request, bodiless, is relayed the long way instead).
   */
  otherwise?: () => void
}

/**
 * An answer (its headers or its body) from which no byte comes for this long is ended, so a
 * target trickling without end holds no connection for good; one that keeps sending (SSE with a
 * heartbeat, a long download) is never cut (docs/security.md "Answers of an app's server").
 */
export const PROXY_IDLE_TIMEOUT_MS = 120_000

const devServerUnavailable = {
  contentType: 'text/plain; charset=utf-8',
  body: 'The app’s dev server is not answering. It is being restarted; reload in a moment.',
}

/**
 * Streams one HTTP request to the dev server (or an app's production server) and its answer
 * back.
 */
export function proxyHttp(
  request: IncomingMessage,
  response: ServerResponse,
  target: DevServerTarget,
  options: ProxyHttpOptions = {},
) {
  const maxBodyBytes = options.maxBodyBytes ?? Number.POSITIVE_INFINITY
  let refused = false
  const refuseTooLarge = () => {
    refused = true
    request.unpipe()
    // The client may still be sending: the answer closes the connection rather than read on.
    response.writeHead(413, { 'content-type': 'application/json', connection: 'close' })
    response.end(
      JSON.stringify({
        error: `Request body is too large: the limit is ${maxBodyBytes.toLocaleString('en-US')} bytes (MAX_BODY_BYTES)`,
      }),
    )
  }
  if (Number(request.headers['content-length'] ?? 0) > maxBodyBytes) return refuseTooLarge()
  const inject = request.method === 'GET' ? options.injectIntoPages : undefined
  // A page is rewritten, so it is asked for uncompressed (decoded anyway if it comes compressed).
  const headers = forwardedRawHeaders(request, target, inject ? 'identity' : undefined, options)
  const bodiless =
    request.headers['content-length'] === undefined && !request.headers['transfer-encoding']
  const send = (retried: boolean): http.ClientRequest => {
    const upstream = http.request(
      {
        agent: options.agent ?? agent,
        ...targetConnection(target),
        method: request.method,
        path: request.url,
        headers,
      },
      (answer) => {
        if (refused) return answer.resume()
        if (inject && isInjectableHtml(request.method, answer.statusCode, answer.headers)) {
          const headers: http.OutgoingHttpHeaders = {}
          for (const [name, value] of Object.entries(answer.headers)) {
            if (value !== undefined && !hopByHop.has(name)) headers[name] = value
          }
          return sendInjected(answer, response, headers, inject)
        }
        // The raw list: no header object is built for the answer (a profile showed it).
        response.writeHead(answer.statusCode ?? 502, answerHeaders(answer))
        answer.pipe(response)
      },
    )
    let idle = false
    upstream.setTimeout(options.idleTimeoutMs ?? PROXY_IDLE_TIMEOUT_MS, () => {
      idle = true
      upstream.destroy()
      if (refused) return
      if (response.headersSent) return void response.destroy()
      response.writeHead(504, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
      response.end(
        'The app sent nothing for too long, so its answer was ended. Reload to try again.',
      )
    })
    upstream.on('error', () => {
      if (refused || idle) return
      // The dev server closed an idle kept-alive connection as this request went out on it (its
      // keep-alive timeout raced ours): a request without a body is sent again on a new one,
      // once, rather than shown as a module that failed (docs/architecture/devbox.md).
      if (upstream.reusedSocket && bodiless && !retried && !response.headersSent) {
        return void send(true).end()
      }
      if (!response.headersSent && options.otherwise) return options.otherwise()
      if (!response.headersSent) {
        options.onUnavailable?.()
        const unavailable = options.unavailable ?? devServerUnavailable
        response.writeHead(502, { 'content-type': unavailable.contentType })
        response.end(unavailable.body)
      } else {
        response.destroy()
      }
    })
    return upstream
  }
  const upstream = send(false)
  // A request without a body (most GETs) has nothing to stream or count.
  if (bodiless) return void upstream.end()
  if (Number.isFinite(maxBodyBytes)) {
    let received = 0
    request.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (received <= maxBodyBytes || refused) return
      upstream.destroy()
      if (response.headersSent) response.destroy()
      else refuseTooLarge()
    })
  }
  request.pipe(upstream)
}

/** Sends a page with the reporter's tag: its length changes, and the upstream's etag no longer fits. */
function sendInjected(
  answer: IncomingMessage,
  response: ServerResponse,
  headers: http.OutgoingHttpHeaders,
  tag: string,
) {
  // Listeners rather than `for await`: a page is one or two chunks, and the async iterator cost
  // a promise per chunk and per end (docs/performance.md "API and proxies (second pass)").
  const chunks: Buffer[] = []
  let received = 0
  const onData = (chunk: Buffer) => {
    received += chunk.length
    chunks.push(chunk)
    if (received <= INJECTED_PAGE_MAX_BYTES) return
    // Too long a page to hold (one without end would fill the memory): passed on without the tag.
    answer.off('data', onData)
    answer.off('end', onEnd)
    response.writeHead(200, headers)
    for (const held of chunks) response.write(held)
    chunks.length = 0
    answer.pipe(response)
  }
  answer.on('data', onData)
  // Cut off or failed upstream: the visitor's answer is cut off too, as a piped one would be.
  answer.on('error', () => response.destroy())
  answer.on('close', () => {
    if (!answer.complete) response.destroy()
  })
  const onEnd = () => {
    const encoding = answer.headers['content-encoding']
    const body = Buffer.concat(chunks)
    const send = (html: string) => {
      try {
        const page = Buffer.from(injectIntoHtml(html, tag))
        delete headers.etag
        delete headers['content-encoding']
        headers['content-length'] = page.length
        response.writeHead(200, headers)
        response.end(page)
      } catch {
        response.destroy()
      }
    }
    if (encoding === undefined || encoding === 'identity') return send(body.toString('utf8'))
    decodeBody(body, encoding).then(send, () => response.destroy())
  }
  answer.on('end', onEnd)
}

/** Tunnels a WebSocket upgrade (Vite's HMR) to the dev server; `onMessage`: the browser spoke. */
export function proxyUpgrade(
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: DevServerTarget,
  onMessage?: () => void,
) {
  const upstream = http.request({
    ...targetConnection(target),
    method: request.method,
    path: request.url,
    headers: {
      ...forwardedHeaders(request, target),
      connection: 'Upgrade',
      upgrade: request.headers.upgrade ?? 'websocket',
    },
  })
  upstream.on('upgrade', (answer, upstreamSocket, upstreamHead) => {
    spliceUpgrade({ socket, head, answer, upstreamSocket, upstreamHead })
    if (onMessage) socket.on('data', onMessage)
    upstreamSocket.on('error', () => socket.destroy())
    socket.on('error', () => upstreamSocket.destroy())
  })
  upstream.on('response', (answer) => {
    socket.end(
      `HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? 'Bad Gateway'}\r\n\r\n`,
    )
  })
  upstream.on('error', () => socket.destroy())
  upstream.end()
}
