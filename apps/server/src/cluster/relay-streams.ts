import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { spliceUpgrade } from '../http/splice-upgrade.ts'

// Hop-by-hop headers (RFC 9110 7.6.1) are the connection's own; an upgrade keeps its own.
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
])

const agent = new http.Agent({ keepAlive: true })

/** The request's headers for the owner, the hop-by-hop ones dropped unless it upgrades. */
export function forwardedHeaders(request: IncomingMessage, upgrading: boolean) {
  const headers: http.OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || (!upgrading && hopByHop.has(name))) continue
    headers[name] = value
  }
  return headers
}

/**
 * The owner did not answer (it died; its lease is not expired yet): 503 with Retry-After, and a
 * page that reloads itself, so a preview comes back by itself once another instance holds the
 * box (docs/decisions/033-box-leases-and-relay.md).
 */
function ownerGone(request: IncomingMessage, response: ServerResponse) {
  const message = 'The server running this app is not answering; another takes over within 30 s.'
  if ((request.headers.accept ?? '').includes('text/html')) {
    response.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'retry-after': '2' })
    return void response.end(
      `<!doctype html><meta http-equiv="refresh" content="2"><title>Moving…</title><p>${message}</p>`,
    )
  }
  response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' })
  response.end(JSON.stringify({ error: message }))
}

/** Streams a request to the owner and its answer back (an event stream as it comes). */
export function relayRequest(
  request: IncomingMessage,
  response: ServerResponse,
  ownerUrl: string,
  headers: http.OutgoingHttpHeaders,
) {
  const upstream = http.request(new URL(request.url ?? '/', ownerUrl), {
    method: request.method,
    headers,
    agent,
  })
  upstream.on('response', (answer) => {
    const answerHeaders: string[] = []
    for (let index = 0; index < answer.rawHeaders.length; index += 2) {
      const name = answer.rawHeaders[index] ?? ''
      if (hopByHop.has(name.toLowerCase())) continue
      answerHeaders.push(name, answer.rawHeaders[index + 1] ?? '')
    }
    response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders)
    // An event stream's first bytes go out now, not with the next write.
    response.flushHeaders()
    answer.pipe(response)
    answer.on('error', () => response.destroy())
  })
  upstream.on('error', (error) => {
    console.error('[cluster] relaying to the owner failed:', error.message)
    if (response.headersSent) return void response.destroy()
    ownerGone(request, response)
  })
  // The client left: so does the relayed request (an event stream's owner stops writing).
  response.on('close', () => {
    if (!response.writableFinished) upstream.destroy()
  })
  request.pipe(upstream)
}

/** Relays a WebSocket upgrade (the preview's HMR): the owner's 101, then bytes both ways. */
export function relayUpgrade(
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  ownerUrl: string,
  headers: http.OutgoingHttpHeaders,
) {
  const upstream = http.request(new URL(request.url ?? '/', ownerUrl), {
    method: request.method,
    headers,
  })
  upstream.on('upgrade', (answer, upstreamSocket, upstreamHead) => {
    spliceUpgrade({ socket, head, answer, upstreamSocket, upstreamHead })
    const end = () => {
      upstreamSocket.destroy()
      socket.destroy()
    }
    upstreamSocket.on('error', end).on('close', end)
    socket.on('error', end).on('close', end)
  })
  upstream.on('response', (answer) => {
    socket.end(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\nconnection: close\r\n\r\n`)
    answer.resume()
  })
  upstream.on('error', () => socket.destroy())
  upstream.end()
}
