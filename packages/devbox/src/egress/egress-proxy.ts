import { lookup as dnsLookup } from 'node:dns/promises'
import { chmod, rm } from 'node:fs/promises'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import net from 'node:net'
import type { Duplex } from 'node:stream'
import type { DevboxLogger } from '../logger.ts'
import { addressRefusal } from './address-refusal.ts'
import { containFailure } from './contain-failure.ts'
import { createHostAddresses, type HostAddresses } from './host-addresses.ts'

/** DEVBOX_EGRESS: the public internet, only the npm registry, or nothing. */
export type EgressPolicy = 'open' | 'registry' | 'none'

export type EgressDecision =
  | { allowed: true; address: string; port: number }
  | { allowed: false; reason: string }

/**
 * The one name inside boxes that reaches Sprout itself (its error ingest): plain HTTP on port 80,
 * answered by the server's handler for the calling box, never forwarded anywhere.
 */
export const internalHostname = 'sprout.internal'

/** Answers a box's request to `http://sprout.internal` (`request.url` is the path). */
export type InternalRequestHandler = (
  boxId: string,
  request: IncomingMessage,
  response: ServerResponse,
) => void

export type EgressProxy = {
  policy: EgressPolicy
  /** Serves the proxy on a unix socket (one per box); resolves to a function that closes it. */
  listen: (socketPath: string, boxId: string) => Promise<() => Promise<void>>
  decide: (hostname: string, port: number) => Promise<EgressDecision>
}

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
const withoutHopByHop = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name, value]) => value !== undefined && !hopByHop.has(name)),
  )
const maxOpenConnections = 256
const connectTimeoutMs = 15_000

/**
 * The only way out of a dev box (docs/architecture/devbox.md, "Network"): HTTP CONNECT and plain
 * HTTP forwarding. It resolves each name itself and connects to the checked address, never the
 * name again, so DNS rebinding cannot turn an allowed name into a local address.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the proxy's listeners and counters its methods share
export function createEgressProxy(options: {
  policy: EgressPolicy
  /** The npm registry the server itself uses; the one host `registry` allows. */
  registryUrl: string
  logger: DevboxLogger
  /** Name resolution; defaults to the system resolver. */
  lookup?: (hostname: string) => Promise<string[]>
  /** Answers `http://sprout.internal`; without it the name is refused like any other. */
  internal?: InternalRequestHandler
  /** This machine's own addresses; defaults to its interfaces, re-read as they change. */
  hostAddresses?: HostAddresses
}): EgressProxy {
  const hostAddresses = options.hostAddresses ?? createHostAddresses()
  const registry = new URL(options.registryUrl)
  const registryHost = registry.hostname.toLowerCase()
  const registryPorts = [443, 80, Number(registry.port)].filter((port) => port > 0)
  const lookup =
    options.lookup ??
    (async (hostname: string) =>
      (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address))

  const decide = async (rawHostname: string, port: number): Promise<EgressDecision> => {
    const hostname = rawHostname.replace(/^\[|\]$/g, '').toLowerCase()
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      return { allowed: false, reason: `port ${port} is not a valid port` }
    }
    if (options.policy === 'none') {
      return { allowed: false, reason: 'outbound access is off for dev boxes (DEVBOX_EGRESS=none)' }
    }
    const isRegistry = hostname === registryHost && registryPorts.includes(port)
    if (options.policy === 'registry' && !isRegistry) {
      return {
        allowed: false,
        reason: `only the npm registry (${registryHost}) is reachable from dev boxes (DEVBOX_EGRESS=registry)`,
      }
    }
    let addresses: string[]
    try {
      addresses = net.isIP(hostname) ? [hostname] : await lookup(hostname)
    } catch {
      return { allowed: false, reason: `the name ${hostname} does not resolve` }
    }
    const [address] = addresses
    const refusal = addressRefusal(hostname, addresses, hostAddresses, isRegistry)
    if (refusal !== undefined || address === undefined) {
      return { allowed: false, reason: refusal ?? `the name ${hostname} resolves to no address` }
    }
    return { allowed: true, address, port }
  }

  // biome-ignore lint/complexity/noExcessiveLinesPerFunction: CONNECT and plain HTTP share the address checks of one connection handler
  const listen = async (socketPath: string, boxId: string) => {
    const sockets = new Set<Duplex>()
    const track = (socket: Duplex) => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
    }
    const refuse = (boxHost: string, reason: string) => {
      options.logger.info('Egress refused', { boxId, host: boxHost, reason })
      return `Sprout's egress proxy refused ${boxHost}: ${reason}\n`
    }

    const logFailure = (handler: string, error: unknown) =>
      options.logger.error('Egress proxy handler failed', {
        boxId,
        handler,
        error: error instanceof Error ? error.message : String(error),
      })
    /** Runs a request's handler; a fault answers 500 (or cuts the answer) on that request only. */
    const guardRequest = (handler: string, response: ServerResponse, run: () => unknown) =>
      containFailure(run, (error) => {
        logFailure(handler, error)
        if (response.headersSent) return response.destroy()
        response.writeHead(500, { 'content-type': 'text/plain', connection: 'close' })
        response.end(`Sprout's egress proxy could not handle this request.\n`)
      })
    const guardSocket = (socket: Duplex, handler: string) =>
      socket.on('error', (error) => {
        options.logger.info('Egress connection failed', { boxId, handler, error: error.message })
        socket.destroy()
      })
    const refuseMalformed = (error: Error, socket: Duplex) => {
      options.logger.info('Egress request malformed', { boxId, error: error.message })
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
      else socket.destroy()
    }

    const server = http.createServer((request, response) => {
      guardRequest('http', response, () => forwardHttp(request, response))
    })
    // Requests to sprout.internal, from the plain HTTP proxy or from inside a CONNECT tunnel.
    const internalServer = http.createServer((request, response) => {
      guardRequest('internal', response, () =>
        options.internal ? options.internal(boxId, request, response) : response.destroy(),
      )
    })
    server.on('clientError', refuseMalformed)
    internalServer.on('clientError', refuseMalformed)
    const forwardHttp = async (request: IncomingMessage, response: ServerResponse) => {
      track(request.socket)
      request.on('error', () => response.destroy())
      response.on('error', () => response.destroy())
      let target: URL
      try {
        target = new URL(request.url ?? '')
      } catch {
        response.writeHead(400, { 'content-type': 'text/plain' })
        return response.end('Send absolute http:// URLs through this proxy, or use CONNECT.\n')
      }
      if (options.internal && target.hostname.toLowerCase() === internalHostname) {
        if (target.protocol !== 'http:' || (target.port !== '' && target.port !== '80')) {
          response.writeHead(403, { 'content-type': 'text/plain' })
          return response.end(refuse(target.host, 'only http://sprout.internal (port 80) exists'))
        }
        request.url = `${target.pathname}${target.search}`
        return options.internal(boxId, request, response)
      }
      if (target.protocol !== 'http:') {
        response.writeHead(400, { 'content-type': 'text/plain' })
        return response.end('Only http:// is forwarded; https:// goes through CONNECT.\n')
      }
      const decision = await decide(target.hostname, Number(target.port || 80))
      if (!decision.allowed) {
        response.writeHead(403, { 'content-type': 'text/plain' })
        return response.end(refuse(target.host, decision.reason))
      }
      const headers = { ...withoutHopByHop(request.headers), host: target.host }
      const upstream = http.request(
        {
          host: decision.address,
          port: decision.port,
          method: request.method,
          path: `${target.pathname}${target.search}`,
          headers,
          timeout: connectTimeoutMs,
        },
        (answer) => {
          answer.on('error', () => response.destroy())
          guardRequest('http answer', response, () => {
            response.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers))
            answer.pipe(response)
          })
        },
      )
      upstream.on('timeout', () => upstream.destroy(new Error('timed out')))
      upstream.on('error', (error) => {
        if (response.headersSent) return response.destroy()
        response.writeHead(502, { 'content-type': 'text/plain' })
        response.end(`Sprout's egress proxy could not reach ${target.host}: ${error.message}\n`)
      })
      request.pipe(upstream)
    }

    server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
      track(client)
      guardSocket(client, 'connect')
      const connect = async () => {
        const authority = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(request.url ?? '')
        if (!authority) {
          client.end('HTTP/1.1 400 Bad Request\r\n\r\nCONNECT needs host:port\n')
          return
        }
        const host = authority[1] ?? ''
        if (options.internal && host.toLowerCase() === internalHostname) {
          if (authority[2] !== '80') {
            client.end(
              `HTTP/1.1 403 Forbidden\r\n\r\n${refuse(request.url ?? '', 'only sprout.internal:80 exists')}`,
            )
            return
          }
          // The tunnel ends here, at Sprout's own handler, never at a network address.
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
          if (head.length > 0) client.unshift(head)
          internalServer.emit('connection', client)
          return
        }
        const decision = await decide(host, Number(authority[2]))
        if (client.destroyed) return
        if (!decision.allowed) {
          client.end(`HTTP/1.1 403 Forbidden\r\n\r\n${refuse(request.url ?? '', decision.reason)}`)
          return
        }
        const upstream = net.connect({
          host: decision.address,
          port: decision.port,
          timeout: connectTimeoutMs,
        })
        track(upstream)
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
      containFailure(connect, (error) => {
        logFailure('connect', error)
        client.destroy()
      })
    })
    server.on('upgrade', (_request: IncomingMessage, client: Duplex) => {
      guardSocket(client, 'upgrade')
      client.end('HTTP/1.1 501 Not Implemented\r\n\r\nUse CONNECT for WebSockets.\n')
    })
    server.maxConnections = maxOpenConnections

    await rm(socketPath, { force: true })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(socketPath, () => resolve())
    })
    server.on('error', (error) => logFailure('server', error))
    await chmod(socketPath, 0o600)
    return async () => {
      for (const socket of sockets) socket.destroy()
      internalServer.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await rm(socketPath, { force: true })
    }
  }

  return { policy: options.policy, listen, decide }
}
