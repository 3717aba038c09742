import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { type KubeConfig, PortForward, type V1Pod } from '@kubernetes/client-node'

/** What this file needs of the library's WebSocket. */
type ForwardSocket = { on(event: 'close' | 'error', listener: () => void): void; close(): void }
type Forwarded = { uid: string; servers: Server[]; sockets: Map<number, string> }

/**
 * How Sprout outside the cluster reaches a pod's ports (KUBERNETES_REACH_PODS=port-forward,
 * decision 040): for each running pod, a listener per port whose every connection is one
 * port-forward of the API server, through the library's PortForward. The listeners are unix
 * sockets in a folder only Sprout's user may enter: a loopback port would let any process of
 * the machine into a box's agent port and dev server.
 */
export function createPortForwarder(kubeConfig: KubeConfig, ports: number[]) {
  const forward = new PortForward(kubeConfig)
  const folder = mkdtempSync(path.join(os.tmpdir(), 'sprout-forward-'))
  let made = 0
  const forwarded = new Map<string, Forwarded>()
  const keyOf = (pod: V1Pod) => `${pod.metadata?.namespace}/${pod.metadata?.name}`

  const listen = (namespace: string, name: string, port: number, socketPath: string) =>
    new Promise<Server>((resolve, reject) => {
      // No Nagle: a streamed answer of small frames would wait on delayed ACKs (40 ms each).
      const server = createServer({ noDelay: true }, (socket) => {
        socket.on('error', () => socket.destroy())
        forward.portForward(namespace, name, [port], socket, null, socket).then(
          (opened) => {
            const webSocket = opened as unknown as ForwardSocket
            webSocket.on('close', () => socket.end())
            webSocket.on('error', () => socket.destroy())
            socket.on('close', () => webSocket.close())
          },
          () => socket.destroy(),
        )
      })
      server.once('error', reject)
      server.listen(socketPath, () => resolve(server))
    })

  const close = (key: string) => {
    const entry = forwarded.get(key)
    forwarded.delete(key)
    for (const server of entry?.servers ?? []) server.close()
  }

  return {
    /** Listeners for a pod that runs; a pod made anew under the same name gets new ones. */
    open: async (pod: V1Pod) => {
      const key = keyOf(pod)
      const uid = pod.metadata?.uid ?? ''
      if (forwarded.get(key)?.uid === uid) return
      close(key)
      const namespace = pod.metadata?.namespace ?? ''
      const name = pod.metadata?.name ?? ''
      // Made again after a shutdown removed it, should the driver be used once more.
      mkdirSync(folder, { recursive: true, mode: 0o700 })
      made += 1
      const sockets = new Map(
        ports.map((port) => [port, path.join(folder, `${made}-${port}.sock`)]),
      )
      const servers = await Promise.all(
        [...sockets].map(([port, socketPath]) => listen(namespace, name, port, socketPath)),
      )
      forwarded.set(key, { uid, servers, sockets })
    },
    address: (pod: V1Pod, port: number) => {
      const entry = forwarded.get(keyOf(pod))
      const socketPath = entry?.uid === pod.metadata?.uid ? entry?.sockets.get(port) : undefined
      return socketPath ? { socketPath } : undefined
    },
    close: (namespace: string, name: string) => close(`${namespace}/${name}`),
    closeAll: () => {
      for (const key of [...forwarded.keys()]) close(key)
      rmSync(folder, { recursive: true, force: true })
    },
  }
}
