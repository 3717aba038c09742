import type { IncomingMessage } from 'node:http'
import type { BoxLeases } from './box-leases.ts'
import { createRelayVerifier, RELAY_CLIENT_HEADER, RELAY_HEADER } from './relay-signature.ts'
import { setRelayedClient } from './relayed-client.ts'

/** Which application a request concerns (its box), or undefined: served here. */
export type ApplicationOf = (request: IncomingMessage) => Promise<string | undefined>

export type RelayRouterOptions = {
  key: Buffer
  leases: BoxLeases
  applicationOf: ApplicationOf
  /** This instance took the lease: the runtime learns of the box before the request is served. */
  acquired: (applicationId: string) => Promise<void>
}

/** How long a found owner is reused for reads: well within a lease's fencing margin (decision 033). */
const ownerMemoryMs = 2_000
/** A read (no body): one the owner did not serve may be sent again. */
const isRead = (request: IncomingMessage) => request.method === 'GET' || request.method === 'HEAD'

/**
 * Where a request is served (docs/decisions/033-box-leases-and-relay.md): here when this instance
 * holds the application's lease or takes it, else at the lease holder; a relayed one is checked
 * and served here.
 */
export function createRelayRouter(options: RelayRouterOptions) {
  const verify = createRelayVerifier(options.key)

  type Route =
    | { local: true }
    | { local: false; ownerUrl: string; applicationId: string }
    | { refused: number }

  // Where each application's owner was found, reused by reads for a moment: a preview's page
  // asks for dozens of modules at once, each one a lease attempt and a look-up otherwise
  // (docs/performance.md "several instances behind HAProxy"). An owner that refuses, is gone or
  // no longer holds the lease (421) is forgotten and the request routed again.
  const owners = new Map<string, { ownerUrl: string; until: number }>()
  const forgetOwner = (applicationId: string) => owners.delete(applicationId)

  const route = async (request: IncomingMessage): Promise<Route> => {
    const header = request.headers[RELAY_HEADER]
    if (header !== undefined) {
      const client = String(request.headers[RELAY_CLIENT_HEADER] ?? '')
      const valid =
        typeof header === 'string' &&
        verify(header, { method: request.method ?? 'GET', path: request.url ?? '/', client })
      if (!valid) return { refused: 403 }
      setRelayedClient(request, client)
      // A lease given up since the relay left is taken back if free; one another instance holds
      // now is its to serve: the relay's owner was out of date (421, routed again).
      const relayedFor = await options.applicationOf(request)
      if (relayedFor && !options.leases.holds(relayedFor)) {
        const taken = await options.leases.take(relayedFor)
        if (taken) await options.acquired(relayedFor)
        else if (taken === false) return { refused: 421 }
      }
      return { local: true }
    }
    const applicationId = await options.applicationOf(request)
    if (!applicationId || options.leases.holds(applicationId)) return { local: true }
    const known = owners.get(applicationId)
    if (known && known.until > Date.now() && isRead(request)) {
      return { local: false, ownerUrl: known.ownerUrl, applicationId }
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const taken = await options.leases.take(applicationId)
      // No such application: the route answers it (a 404).
      if (taken === undefined) return { local: true }
      if (taken) {
        await options.acquired(applicationId)
        return { local: true }
      }
      const ownerUrl = await options.leases.ownerOf(applicationId)
      if (ownerUrl) {
        if (owners.size > 10_000) owners.clear()
        owners.set(applicationId, { ownerUrl, until: Date.now() + ownerMemoryMs })
        return { local: false, ownerUrl, applicationId }
      }
      // The lease expired or its owner left between the two statements: try once more.
    }
    return { refused: 503 }
  }

  return { route, forgetOwner }
}
