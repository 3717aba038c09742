import { createServer, type Server } from 'node:net'
import { type KubeConfig, PortForward, type V1Pod } from '@kubernetes/client-node'

/** What this file needs of the library's WebSocket. */
type ForwardSocket = { on(event: 'close' | 'error', listener: () => void): void; close(): void }
type Forwarded = { uid: string; servers: Server[]; ports: Map<number, number> }

/**
 * How Sprout outside the cluster reaches a pod's ports (KUBERNETES_REACH_PODS=port-forward,
 * decision 040): for each running pod, a loopback listener per port whose every connection is
 * one port-forward of the API server, through the library's PortForward.
 */
export function createPortForwarder(kubeConfig: KubeConfig, ports: number[]) {
  const forward = new PortForward(kubeConfig)
  const forwarded = new Map<string, Forwarded>()
  const keyOf = (pod: V1Pod) => `${pod.metadata?.namespace}/${pod.metadata?.name}`

  const listen = (namespace: string, name: string, port: number) =>
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
      server.listen(0, '127.0.0.1', () => resolve(server))
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
      const servers = await Promise.all(ports.map((port) => listen(namespace, name, port)))
      const local = new Map(
        ports.map((port, index) => {
          const address = servers[index]?.address()
          return [port, typeof address === 'object' && address ? address.port : 0]
        }),
      )
      forwarded.set(key, { uid, servers, ports: local })
    },
    address: (pod: V1Pod, port: number) => {
      const entry = forwarded.get(keyOf(pod))
      const local = entry?.uid === pod.metadata?.uid ? entry?.ports.get(port) : undefined
      return local ? { host: '127.0.0.1', port: local } : undefined
    },
    close: (namespace: string, name: string) => close(`${namespace}/${name}`),
    closeAll: () => {
      for (const key of [...forwarded.keys()]) close(key)
    },
  }
}
