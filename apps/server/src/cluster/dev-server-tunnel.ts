import type { IncomingMessage } from 'node:http'
import net from 'node:net'
import type { Duplex } from 'node:stream'
import type { DevServerTarget } from '@sprout/devbox/devbox-driver.ts'
import { applicationIdText } from './application-of-request.ts'
import type { BoxLeases } from './box-leases.ts'
import { createRelayVerifier, RELAY_HEADER } from './relay-signature.ts'

/** The `Upgrade` protocol of a tunnel to a box's dev server (docs/decisions/042-dev-server-tunnel.md). */
export const TUNNEL_PROTOCOL = 'sprout-dev-server'

const tunnelPrefix = '/__sprout/dev-server/'
const applicationIdPattern = new RegExp(`^${applicationIdText}$`)

/** The path a tunnel to an application's dev server is asked for at its owner. */
export const tunnelPath = (applicationId: string) => `${tunnelPrefix}${applicationId}`

/** How long a tunnel waits for an idle (or just reopened) dev server, as a preview module does. */
const targetWaitMs = 30_000

export type TunnelEndpointOptions = {
  key: Buffer
  leases: Pick<BoxLeases, 'holds'>
  devboxes: () => {
    previewTarget: (
      applicationId: string,
      timeoutMs: number,
    ) => Promise<DevServerTarget | undefined>
    touch: (applicationId: string) => void
  }
}

/** Whether an upgrade asks for a tunnel (any host: instances reach each other at their address). */
export const isTunnelRequest = (request: IncomingMessage) =>
  request.headers.upgrade === TUNNEL_PROTOCOL

/**
 * The owner's end of a tunnel (decision 042): a signed upgrade from another instance for a box
 * this instance holds becomes a plain byte pipe to the box's dev server, over which the other
 * instance sends the preview's module requests itself. Refused as an HTTP answer otherwise:
 * 403 unsigned, forged or replayed, 421 for a box held elsewhere, 503 with no dev server.
 */
export function createTunnelEndpoint(options: TunnelEndpointOptions) {
  const verify = createRelayVerifier(options.key)
  const refuse = (socket: Duplex, status: number, reason: string) =>
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)

  return async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const pathname = request.url ?? ''
    const applicationId = pathname.startsWith(tunnelPrefix)
      ? pathname.slice(tunnelPrefix.length)
      : ''
    const header = request.headers[RELAY_HEADER]
    const signed =
      request.method === 'GET' &&
      applicationIdPattern.test(applicationId) &&
      typeof header === 'string' &&
      verify(header, { method: 'GET', path: pathname, client: '' })
    if (!signed) return refuse(socket, 403, 'Forbidden')
    if (!options.leases.holds(applicationId)) return refuse(socket, 421, 'Misdirected Request')
    const devboxes = options.devboxes()
    const target = await devboxes.previewTarget(applicationId, targetWaitMs)
    if (!target || socket.destroyed) return refuse(socket, 503, 'Service Unavailable')
    const upstream = net.connect(
      'socketPath' in target
        ? { path: target.socketPath }
        : { host: target.host, port: target.port },
    )
    upstream.setNoDelay(true)
    upstream.on('error', () => {
      if (upstream.connecting) refuse(socket, 503, 'Service Unavailable')
      else socket.destroy()
    })
    upstream.once('connect', () => {
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: ${TUNNEL_PROTOCOL}\r\n\r\n`,
      )
      if (head.length > 0) upstream.write(head)
      // Each request through the tunnel is a use of the box, as a preview request here is.
      socket.on('data', () => devboxes.touch(applicationId))
      socket.pipe(upstream)
      upstream.pipe(socket)
      socket.on('close', () => upstream.destroy())
      upstream.on('close', () => socket.destroy())
    })
  }
}
