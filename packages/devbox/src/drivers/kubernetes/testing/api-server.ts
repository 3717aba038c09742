import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { KubeConfig, type V1Pod } from '@kubernetes/client-node'
import { createExecEndpoint } from './api-server-exec.ts'
import { createKubelet } from './api-server-kubelet.ts'
import { portsAnnotation } from './api-server-pod-host.ts'
import { createPortForwardEndpoint } from './api-server-port-forward.ts'
import { handleRest, parseResourcePath, sendJson } from './api-server-rest.ts'
import { createResourceStore } from './api-server-store.ts'

export type TestApiServer = {
  url: string
  /** A client configuration for this server, as a kubeconfig file would give it. */
  kubeConfig: () => KubeConfig
  /** Requests it answered, `METHOD path`, for tests that assert what the driver sent. */
  requests: string[]
  /** The objects created, as the client sent them, for tests that validate them. */
  created: unknown[]
  /** Ends every open watch, as an API server restarting or timing them out does. */
  dropWatches: () => void
  close: () => Promise<void>
}

const token = 'sprout-test-token'

/**
 * A Kubernetes API server for tests on loopback (decision 037): the REST and WebSocket protocol
 * the kubernetes driver uses, for pods, persistentvolumeclaims and networkpolicies, with a
 * kubelet that runs each pod as processes of this machine. It asks for the bearer token its
 * kubeconfig carries, as a cluster would.
 */
export async function startTestApiServer(options: {
  /** Folders of the claims and of the pods' emptyDir volumes. */
  rootDir: string
  /** Files of the box image on this machine (templates, the agent): never under a volume. */
  imagePaths?: string[]
  port?: number
}): Promise<TestApiServer> {
  const store = createResourceStore()
  const kubelet = createKubelet(store, options.rootDir, options.imagePaths ?? [])
  const exec = createExecEndpoint(kubelet.hostOf)
  const portForward = createPortForwardEndpoint(kubelet.hostOf)
  const requests: string[] = []
  const created: unknown[] = []
  const watches = new Set<http.ServerResponse>()
  const authorized = (request: http.IncomingMessage) =>
    request.headers.authorization === `Bearer ${token}`

  const server = http.createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    if (!authorized(request)) {
      return sendJson(response, 401, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      })
    }
    if (/[?&]watch=(true|1)(&|$)/.test(request.url ?? '')) {
      watches.add(response)
      response.on('close', () => watches.delete(response))
    }
    handleRest(store, request, response, (object) => created.push(object)).catch((error: Error) => {
      if (!response.headersSent) sendJson(response, 500, { message: error.message })
      else response.destroy()
    })
  })
  server.on('upgrade', (request, socket, head) => {
    requests.push(`UPGRADE ${request.url}`)
    const parsed = parseResourcePath(new URL(request.url ?? '/', 'http://localhost').pathname)
    if (
      !authorized(request) ||
      parsed?.resource !== 'pods' ||
      (parsed.subresource !== 'exec' && parsed.subresource !== 'portforward') ||
      !parsed.name
    ) {
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
      return
    }
    const endpoint = parsed.subresource === 'exec' ? exec : portForward
    endpoint.upgrade(request, socket, head, parsed.namespace, parsed.name)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', resolve)
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    requests,
    created,
    dropWatches: () => {
      for (const response of watches) response.end()
    },
    kubeConfig: () => {
      const config = new KubeConfig()
      config.loadFromOptions({
        clusters: [{ name: 'test', server: url, skipTLSVerify: true }],
        users: [{ name: 'sprout', token }],
        contexts: [{ name: 'test', cluster: 'test', user: 'sprout', namespace: 'sprout-boxes' }],
        currentContext: 'test',
      })
      return config
    },
    close: async () => {
      exec.close()
      portForward.close()
      await kubelet.stop()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Where the test kubelet published a pod's container port on loopback (its ports annotation). */
export function publishedAddress(
  pod: V1Pod,
  port: number,
): { host: string; port: number } | undefined {
  const published = JSON.parse(pod.metadata?.annotations?.[portsAnnotation] ?? '{}') as Record<
    string,
    number
  >
  const mapped = published[String(port)]
  return mapped === undefined ? undefined : { host: '127.0.0.1', port: mapped }
}
