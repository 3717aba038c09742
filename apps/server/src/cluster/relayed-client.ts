import type { IncomingMessage } from 'node:http'

// The client's address of a verified relayed request: the socket's is the relaying instance's.
const relayedClients = new WeakMap<IncomingMessage, string>()

export function setRelayedClient(request: IncomingMessage, address: string) {
  relayedClients.set(request, address)
}

/** The client's address: the relaying instance's word for a relayed request (decision 033). */
export function clientAddressOf(request: IncomingMessage | undefined): string | undefined {
  if (!request) return undefined
  return relayedClients.get(request) ?? request.socket.remoteAddress
}

/**
 * The browser's address as an app's server is told it (`x-forwarded-for`, one address): the
 * first of a trusted proxy's header (TRUST_PROXY), else the connection's. A client's own header
 * never passes as it is, so an app's per-visitor limits cannot be dodged by sending one.
 */
export function visitorAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  const forwarded = request.headers['x-forwarded-for']
  const first = trustProxy && typeof forwarded === 'string' ? forwarded.split(',')[0]?.trim() : ''
  return first || clientAddressOf(request) || '127.0.0.1'
}
