import { chmod, rm } from 'node:fs/promises'
import { createEgressBox } from './egress-box.ts'
import type { EgressProxyState } from './egress-proxy-state.ts'
import { createEgressServer } from './egress-server.ts'

/** Serves the proxy on a unix socket (one per box); resolves to a function that closes it. */
export async function listenForBox(
  proxy: EgressProxyState,
  socketPath: string,
  boxId: string,
): Promise<() => Promise<void>> {
  const { internal } = proxy
  const box = createEgressBox(
    proxy,
    boxId,
    internal && ((request, response) => internal(boxId, request, response)),
  )
  const server = createEgressServer(() => box)
  await rm(socketPath, { force: true })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socketPath, () => {
      server.off('error', reject)
      resolve()
    })
  })
  await chmod(socketPath, 0o600)
  return async () => {
    for (const socket of box.sockets) socket.destroy()
    box.internalServer.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await rm(socketPath, { force: true })
  }
}
