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
