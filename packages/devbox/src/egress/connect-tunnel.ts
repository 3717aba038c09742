import type { IncomingMessage } from 'node:http'
import net from 'node:net'
import type { Duplex } from 'node:stream'
import { containFailure } from './contain-failure.ts'
import { decideEgress } from './decide-egress.ts'
import {
  type EgressBox,
  guardSocket,
  logHandlerFailure,
  refuseHost,
  trackSocket,
} from './egress-box.ts'
import { connectTimeoutMs } from './egress-proxy-state.ts'
import { internalHostname } from './sprout-internal.ts'

/** A box's CONNECT request: a fault in it ends that tunnel alone. */
export function handleConnect(
  box: EgressBox,
  request: IncomingMessage,
  client: Duplex,
  head: Buffer,
) {
  trackSocket(box, client)
  guardSocket(box, client, 'connect')
  containFailure(
    () => connectTunnel(box, request, client, head),
    (error) => {
      logHandlerFailure(box, 'connect', error)
      client.destroy()
    },
  )
}

/** Opens the tunnel to the checked address, or to Sprout's own handler for sprout.internal:80. */
async function connectTunnel(
  box: EgressBox,
  request: IncomingMessage,
  client: Duplex,
  head: Buffer,
) {
  const authority = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(request.url ?? '')
  if (!authority) {
    client.end('HTTP/1.1 400 Bad Request\r\n\r\nCONNECT needs host:port\n')
    return
  }
  const host = authority[1] ?? ''
  if (box.internal && host.toLowerCase() === internalHostname) {
    if (authority[2] !== '80') {
      client.end(
        `HTTP/1.1 403 Forbidden\r\n\r\n${refuseHost(box, request.url ?? '', 'only sprout.internal:80 exists')}`,
      )
      return
    }
    // The tunnel ends here, at Sprout's own handler, never at a network address.
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    if (head.length > 0) client.unshift(head)
    box.internalServer.emit('connection', client)
    return
  }
  const decision = await decideEgress(box.proxy, host, Number(authority[2]))
  if (client.destroyed) return
  if (!decision.allowed) {
    client.end(
      `HTTP/1.1 403 Forbidden\r\n\r\n${refuseHost(box, request.url ?? '', decision.reason)}`,
    )
    return
  }
  const upstream = net.connect({
    host: decision.address,
    port: decision.port,
    timeout: connectTimeoutMs,
  })
  trackSocket(box, upstream)
  upstream.once('timeout', () => upstream.destroy(new Error('timed out')))
  upstream.once('connect', () => {
    upstream.setTimeout(0)
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    if (head.length > 0) upstream.write(head)
    upstream.pipe(client).pipe(upstream)
  })
  upstream.on('error', (error) => {
    if (upstream.connecting || upstream.bytesRead === 0) {
      client.end(`HTTP/1.1 502 Bad Gateway\r\n\r\n${error.message}\n`)
    } else {
      client.destroy()
    }
  })
  client.on('close', () => upstream.destroy())
}
