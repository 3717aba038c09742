import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import { decideEgress } from './decide-egress.ts'
import { type EgressBox, guardRequest, refuseHost, trackSocket } from './egress-box.ts'
import { connectTimeoutMs } from './egress-proxy-state.ts'
import { internalHostname } from './sprout-internal.ts'

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])
/** Headers a proxy sends on: none of the connection's own, nor the proxy's credentials. */
export const withoutHopByHop = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name, value]) => value !== undefined && !hopByHop.has(name)),
  )

/** Plain HTTP proxying: an absolute http:// URL, forwarded to the checked address. */
export async function forwardHttp(
  box: EgressBox,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const { internal } = box
  trackSocket(box, request.socket)
  request.on('error', () => response.destroy())
  response.on('error', () => response.destroy())
  let target: URL
  try {
    target = new URL(request.url ?? '')
  } catch {
    response.writeHead(400, { 'content-type': 'text/plain' })
    return response.end('Send absolute http:// URLs through this proxy, or use CONNECT.\n')
  }
  if (internal && target.hostname.toLowerCase() === internalHostname) {
    if (target.protocol !== 'http:' || (target.port !== '' && target.port !== '80')) {
      response.writeHead(403, { 'content-type': 'text/plain' })
      return response.end(
        refuseHost(box, target.host, 'only http://sprout.internal (port 80) exists'),
      )
    }
    request.url = `${target.pathname}${target.search}`
    return internal(request, response)
  }
  if (target.protocol !== 'http:') {
    response.writeHead(400, { 'content-type': 'text/plain' })
    return response.end('Only http:// is forwarded; https:// goes through CONNECT.\n')
  }
  const decision = await decideEgress(box.proxy, target.hostname, Number(target.port || 80))
  if (!decision.allowed) {
    response.writeHead(403, { 'content-type': 'text/plain' })
    return response.end(refuseHost(box, target.host, decision.reason))
  }
  const headers = { ...withoutHopByHop(request.headers), host: target.host }
  sendOn(
    request,
    response,
    {
      host: decision.address,
      port: decision.port,
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers,
    },
    { name: target.host, box },
  )
}

/**
 * Sends a request on and its answer back, without either side's hop-by-hop headers; a 502 names
 * `to.name` when it cannot be reached. With `to.box`, a fault answering is that request's alone.
 */
export function sendOn(
  request: IncomingMessage,
  response: ServerResponse,
  options: http.RequestOptions,
  to: { name: string; box?: EgressBox },
) {
  const upstream = http.request({ ...options, timeout: connectTimeoutMs }, (answer) => {
    answer.on('error', () => response.destroy())
    const answerBack = () => {
      response.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers))
      answer.pipe(response)
    }
    if (to.box) guardRequest(to.box, 'http answer', response, answerBack)
    else answerBack()
  })
  upstream.on('timeout', () => upstream.destroy(new Error('timed out')))
  upstream.on('error', (error) => {
    if (response.headersSent) return response.destroy()
    response.writeHead(502, { 'content-type': 'text/plain' })
    response.end(`Sprout's egress proxy could not reach ${to.name}: ${error.message}\n`)
  })
  request.on('error', () => upstream.destroy())
  request.pipe(upstream)
}
