import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { proxyCredentialOf } from './box-identity.ts'
import { createEgressBox, type EgressBox } from './egress-box.ts'
import type { EgressProxyState } from './egress-proxy-state.ts'
import { createEgressServer } from './egress-server.ts'
import { forwardToSprout } from './forward-to-sprout.ts'

/** Boxes remembered by their credentials; past it the proxy starts over (a box forging names). */
const maxBoxes = 10_000
/** Every box's connections through one proxy pod. */
const maxOpenConnections = 4096

export type PodsProxyOptions = {
  port: number
  host?: string
  /** Sprout's address inside the cluster, for sprout.internal; without it the name is refused. */
  sproutUrl?: string
}

/**
 * The egress proxy of boxes that are pods (docs/decisions/039-egress-proxy-for-pods.md): one TCP
 * port for every box, the same policy as local boxes. A box names itself with the credentials
 * of its proxy URL; only sprout.internal needs them, and Sprout checks them.
 */
export async function listenForPods(proxy: EgressProxyState, options: PodsProxyOptions) {
  const boxes = new Map<string, EgressBox>()
  const unnamed = createEgressBox(proxy, 'unnamed', undefined)
  const forget = () => {
    for (const box of boxes.values()) box.internalServer.close()
    boxes.clear()
  }
  const boxOf = (request: IncomingMessage | undefined) => {
    const credential = proxyCredentialOf(request?.headers['proxy-authorization'])
    if (!credential) return unnamed
    const known = boxes.get(credential)
    if (known) return known
    if (boxes.size >= maxBoxes) forget()
    const { sproutUrl } = options
    const box = createEgressBox(
      proxy,
      // Claimed, not proven: the name is for the log; Sprout proves it for sprout.internal.
      credential.slice(0, credential.lastIndexOf(':')),
      sproutUrl
        ? (internalRequest, response) =>
            forwardToSprout(sproutUrl, credential, internalRequest, response)
        : undefined,
    )
    boxes.set(credential, box)
    return box
  }
  const server = createEgressServer(boxOf, maxOpenConnections)
  const connections = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    connections.add(socket)
    socket.once('close', () => connections.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: async () => {
      for (const socket of connections) socket.destroy()
      forget()
      unnamed.internalServer.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
