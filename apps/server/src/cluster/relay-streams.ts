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

// With a timeout Node honours the owner's `Keep-Alive: timeout=5` for idle sockets (closing them
// a second early); without one it keeps them forever and reuses one the owner is closing, and the
// request fails with 'socket hang up', answered as if the owner were gone. An answer in progress
// (an event stream) is not cut by it.
const agent = new http.Agent({ keepAlive: true, timeout: 60_000 })

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
  const message = 'The server running this app is not answering; another takes over within 20 s.'
  if ((request.headers.accept ?? '').includes('text/html')) {
    response.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'retry-after': '2' })
    return void response.end(
      `<!doctype html><meta http-equiv="refresh" content="2"><title>Moving…</title><p>${message}</p>`,
    )
  }
  response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' })
  response.end(JSON.stringify({ error: message }))
}

/** What a relay does when the owner did not serve the request. */
export type RelayRetry = {
  /**
   * Routes the request again, when the owner refused the connection (it stopped listening: the
   * body is unread) or answered a read with 421 (another instance holds the lease now).
   */
  again?: () => void
  /** The owner did not answer: it is forgotten as the owner. */
  ownerGone?: () => void
}

/**
 * Streams a request to the owner and its answer back (an event stream as it comes). The body is
 * read only once the owner accepted the connection (a bodiless one) or the request (100-continue),
 * so a request the owner refused or dropped unread can go elsewhere.
 */
export function relayRequest(
  request: IncomingMessage,
  response: ServerResponse,
  ownerUrl: string,
  headers: http.OutgoingHttpHeaders,
  retry: RelayRetry = {},
) {
  const bodiless =
    request.headers['content-length'] === undefined && !request.headers['transfer-encoding']
  const isRead = request.method === 'GET' || request.method === 'HEAD'
  // A request with a body asks the owner first (100-continue) and sends its body only once the
  // owner took the request: an owner that closes the connection before, as it stops, has read
  // none of it, and the request goes to the next owner whole (a message is never lost or sent
  // twice). Its connection is not kept: one answered before its body went would be out of step.
  const upstream = http.request(new URL(request.url ?? '/', ownerUrl), {
    method: request.method,
    headers: bodiless ? headers : { ...headers, expect: '100-continue', connection: 'close' },
    agent,
  })
  let bodySent = false
  const sendBody = () => {
    bodySent = true
    request.pipe(upstream)
  }
  // The client left: so does the relayed request (an event stream's owner stops writing).
  const clientLeft = () => {
    if (!response.writableFinished) upstream.destroy()
  }
  response.on('close', clientLeft)
  // Routed again: the next attempt watches the client itself.
  const again = () => {
    response.off('close', clientLeft)
    retry.again?.()
  }
  if (bodiless) {
    upstream.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', sendBody)
      else sendBody()
    })
  } else {
    upstream.on('continue', sendBody)
  }
  upstream.on('response', (answer) => {
    // Answered without asking for the body (a refusal): the client's body is let go.
    if (!bodySent) {
      request.resume()
      upstream.end()
    }
    if (answer.statusCode === 421 && isRead && retry.again) {
      answer.resume()
      return again()
    }
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
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (retry.again && !response.headersSent) {
      if (error.code === 'ECONNREFUSED') return again()
      // The owner closed the connection before it took the body: nothing of it was read.
      if (!bodiless && !bodySent) return again()
      // The owner closed the connection before answering (a kept-alive one it was closing, or
      // a new one its stop reset): a read is routed again, not answered as if the owner were
      // gone; it changes nothing, so even one the owner had started is safe to send again.
      if (isRead) return again()
    }
    console.error('[cluster] relaying to the owner failed:', error.message)
    retry.ownerGone?.()
    if (response.headersSent) return void response.destroy()
    ownerGone(request, response)
  })
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
