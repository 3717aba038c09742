import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { ApiException, CoreV1Api, KubeConfig, NetworkingV1Api } from '@kubernetes/client-node'
import type { StartAppServer } from '../../app-servers/app-server-instance.ts'
import type { DevboxDriver, PackType } from '../../devbox-driver.ts'
import type { DevboxLogger } from '../../logger.ts'
import {
  assertBoxId,
  type BoxManifestSettings,
  boxNetworkPolicy,
  boxResourceName,
  workspaceClaim,
} from './box-manifests.ts'
import { type BoxPodAccess, ignoreNotFound } from './box-pod.ts'
import { createKubernetesBox, type PodAddress, podAddress } from './kubernetes-box.ts'
import { createPodAppServerStarter } from './pod-app-servers.ts'
import { createPortForwarder } from './pod-port-forward.ts'

export type KubernetesDriverOptions = {
  /** The cluster; KUBECONFIG, ~/.kube/config or the pod's service account when not given. */
  kubeConfig?: KubeConfig
  settings: BoxManifestSettings
  /** The egress proxy's URL with a box's credentials (decision 039); none: boxes have no way out. */
  egressProxyUrl?: (boxId: string) => Promise<string | undefined>
  /**
   * The token a box's agent answers to (decision 040): the same for every instance of Sprout, so
   * derived from their shared secret; a key of this driver's own when not given (one process).
   */
  agentToken?: (boxId: string) => string
  /**
   * How Sprout reaches a pod's ports: its IP (inside the cluster, the default), or through the
   * API server's port-forward (KUBERNETES_REACH_PODS=port-forward, from outside it).
   */
  reachPods?: 'pod-address' | 'port-forward'
  /** Where Sprout reaches a pod's ports by address; the pod's IP unless told (tests: loopback). */
  address?: PodAddress
  /** APPS_DISK_MB: the size of each deployed app's data claim (decision 041). */
  appDataDiskMb?: number
  logger: DevboxLogger
}

type Box = ReturnType<typeof createKubernetesBox>

/**
 * Dev boxes as pods (docs/architecture/scale-out.md "Dev boxes and production servers as pods",
 * decision 037): a box is a claim holding its workspace, a default-deny network policy and a
 * pod made from them whenever the box is used; suspend and shutdown delete the pod, destroy
 * deletes all three.
 */
export function createKubernetesDriver(
  options: KubernetesDriverOptions,
): DevboxDriver & { startAppServer: StartAppServer } {
  const { settings } = options
  const { access, address, networking, forwarder } = clusterAccessOf(options)
  const api = access.api
  const appServers = createPodAppServerStarter({
    access,
    createPolicy: (body) => networking.createNamespacedNetworkPolicy({ namespace, body }),
    address,
    dataDiskMb: options.appDataDiskMb ?? 1024,
    logger: options.logger,
  })
  const namespace = settings.namespace
  const attached = new Map<string, Box>()

  const ensurePolicy = (id: string) =>
    networking
      .createNamespacedNetworkPolicy({ namespace, body: boxNetworkPolicy(id, settings) })
      .catch((error: unknown) => {
        if (!(error instanceof ApiException && error.code === 409)) throw error
      })

  const attach = (id: string, packType: PackType) => {
    const box = createKubernetesBox(access, {
      id,
      packType,
      address,
    })
    attached.set(id, box)
    return box
  }

  return {
    startAppServer: appServers.start,
    provision: async (packType, provisionOptions) => {
      const id = provisionOptions?.id ?? randomUUID()
      assertBoxId(id)
      await api
        .createNamespacedPersistentVolumeClaim({ namespace, body: workspaceClaim(id, settings) })
        .catch((error: unknown) => {
          if (error instanceof ApiException && error.code === 409) {
            throw new Error(`A box with id ${id} already exists`)
          }
          throw unreachable(error)
        })
      await ensurePolicy(id)
      const box = attach(id, packType)
      await box.initialize()
      await box.box.devServer.start()
      return box.box
    },

    open: async (id, packType, openOptions) => {
      assertBoxId(id)
      const claim = await api
        .readNamespacedPersistentVolumeClaim({ namespace, name: boxResourceName(id) })
        .catch((error: unknown) => {
          if (error instanceof ApiException && error.code === 404) return undefined
          throw unreachable(error)
        })
      if (!claim || claim.metadata?.deletionTimestamp) throw new Error(`Box ${id} does not exist`)
      await attached.get(id)?.release(false)
      await ensurePolicy(id)
      const box = attach(id, packType)
      await box.box.devServer.setEnvironment?.(openOptions?.env ?? {})
      await box.box.devServer.start()
      return box.box
    },

    destroy: async (id) => {
      assertBoxId(id)
      const box = attached.get(id)
      attached.delete(id)
      await box?.release(true)
      const name = boxResourceName(id)
      if (!box) {
        await api.deleteNamespacedPod({ namespace, name }).catch(ignoreNotFound)
      }
      await networking.deleteNamespacedNetworkPolicy({ namespace, name }).catch(ignoreNotFound)
      await api.deleteNamespacedPersistentVolumeClaim({ namespace, name }).catch(ignoreNotFound)
    },

    close: async (id) => {
      const box = attached.get(id)
      attached.delete(id)
      await box?.release(false)
    },

    shutdown: async () => {
      const boxes = [...attached.values()]
      attached.clear()
      // Nothing outlives the server: the pods go, the claims keep the workspaces.
      await Promise.all([...boxes.map((box) => box.release(true)), appServers.stopAll()])
      forwarder?.closeAll()
    },
  }
}

/** The API clients, what a pod needs of Sprout, and how its ports are reached. */
function clusterAccessOf(options: KubernetesDriverOptions) {
  const { settings } = options
  const kubeConfig = options.kubeConfig ?? defaultKubeConfig()
  const forwarder =
    options.reachPods === 'port-forward'
      ? createPortForwarder(kubeConfig, [settings.devServerPort, settings.agentPort])
      : undefined
  const access: BoxPodAccess = {
    kubeConfig,
    api: kubeConfig.makeApiClient(CoreV1Api),
    settings,
    egressProxyUrl: options.egressProxyUrl,
    agentToken: options.agentToken ?? tokensOfOwnKey(),
    podRunning: forwarder?.open,
    podGone: forwarder?.close,
  }
  return {
    access,
    networking: kubeConfig.makeApiClient(NetworkingV1Api),
    forwarder,
    address: forwarder?.address ?? options.address ?? podAddress,
  }
}

/** The API server's own words when it answered; a plain message when it could not be reached. */
function unreachable(error: unknown): Error {
  if (error instanceof ApiException) return error
  const reason = error instanceof Error ? error.message : String(error)
  return new Error(`The Kubernetes API server could not be reached: ${reason}`)
}

function tokensOfOwnKey() {
  const key = randomBytes(32)
  return (boxId: string) => createHmac('sha256', key).update(`agent\n${boxId}`).digest('base64url')
}

function defaultKubeConfig() {
  const kubeConfig = new KubeConfig()
  kubeConfig.loadFromDefault()
  return kubeConfig
}
