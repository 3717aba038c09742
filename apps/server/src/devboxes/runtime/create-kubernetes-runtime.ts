import { lookup } from 'node:dns/promises'
import path from 'node:path'
import type { Database } from '@sprout/db/database.ts'
import {
  type boxImagePaths,
  boxImageSettings,
} from '@sprout/devbox/drivers/kubernetes/box-image.ts'
import type { BoxManifestSettings } from '@sprout/devbox/drivers/kubernetes/box-manifests.ts'
import type { PodAddress } from '@sprout/devbox/drivers/kubernetes/kubernetes-box.ts'
import {
  createKubernetesDriver,
  type KubernetesDriverOptions,
} from '@sprout/devbox/drivers/kubernetes/kubernetes-driver.ts'
import { boxAgentToken, boxIdentityToken } from '@sprout/devbox/egress/box-identity.ts'
import type { DevboxLogger } from '@sprout/devbox/logger.ts'
import type { DevboxConfinement } from '@sprout/protocol/api/applications.ts'
import { boxesHomeOf } from '../../config/boxes-home.ts'
import type { Config } from '../../config/config.ts'
import { devboxLogger } from './create-local-runtime.ts'
import type { AppProcessSupportFor } from './devbox-runtime.ts'
import { createRuntimeForDriver, type SharedPoolOptions } from './runtime-for-driver.ts'

type KubernetesRuntimeConfig = Pick<
  Config,
  'dataDir' | 'sharedDir' | 'databaseUrl' | 'devbox' | 'appsIdleMinutes' | 'appsDiskMb'
>

/** The manifests' settings: the image and base's paths and labels, the local boxes' limits. */
export function boxSettingsOf(config: KubernetesRuntimeConfig): BoxManifestSettings {
  const { kubernetes, limits } = config.devbox
  return {
    ...boxImageSettings,
    namespace: kubernetes.namespace,
    image: kubernetes.boxImage,
    runtimeClassName: kubernetes.runtimeClass,
    diskMb: limits.diskMb,
    memoryMb: limits.memoryMb,
    cpus: limits.cpus,
  }
}

/** What confines a box as a pod (decision 037), for the start-up log and the admin's pool tab. */
function podConfinement(config: KubernetesRuntimeConfig): DevboxConfinement {
  const { kubernetes, limits } = config.devbox
  const runtime = kubernetes.runtimeClass
    ? `runtime class ${kubernetes.runtimeClass}`
    : "the cluster's default runtime"
  return {
    limits,
    enforcement: {
      filesystem: `pod in ${kubernetes.namespace}: read-only root, its own workspace claim, a scratch /tmp`,
      network:
        "NetworkPolicy: in only from Sprout's pods to the dev server, out only to the egress proxy",
      user: 'uid 61000, non-root, no privilege escalation, every capability dropped',
      pids: "the node's pod limit",
      memory: `pod limit ${limits.memoryMb} MiB`,
      cpu: `pod limit ${limits.cpus} CPU`,
      disk: `workspace claim of ${limits.diskMb} MiB`,
      syscalls: `seccomp RuntimeDefault, ${runtime}`,
      node: `the box image's (${kubernetes.boxImage})`,
    },
  }
}

/**
 * The egress proxy's URL for a box: the Service's address, resolved here because boxes have no
 * DNS, with the box's credentials (docs/decisions/039-egress-proxy-for-pods.md). A proxy that
 * does not resolve leaves new boxes without a way out, and says so.
 */
function egressProxyUrlOf(hostAndPort: string, key: Buffer, logger: DevboxLogger) {
  const separator = hostAndPort.lastIndexOf(':')
  const host = hostAndPort.slice(0, separator)
  const port = hostAndPort.slice(separator + 1)
  let resolved: Promise<string> | undefined
  return async (boxId: string) => {
    resolved ??= lookup(host).then(({ address }) => address)
    let address: string
    try {
      address = await resolved
    } catch (error) {
      resolved = undefined
      logger.error('The egress proxy could not be found: this box has no way out', {
        boxId,
        egressProxy: hostAndPort,
        error: (error as Error).message,
      })
      return undefined
    }
    const hostPart = address.includes(':') ? `[${address}]` : address
    return `http://${boxId}:${boxIdentityToken(key, boxId)}@${hostPart}:${port}`
  }
}

/** Which cluster, and how its pods are reached: KUBECONFIG's and their pod IPs unless told. */
export type KubernetesClusterOptions = {
  /** The cluster; KUBECONFIG, ~/.kube/config or the pod's service account by default. */
  kubeConfig?: KubernetesDriverOptions['kubeConfig']
  /** Where a pod's dev server is reached; its pod IP by default (tests: loopback). */
  address?: PodAddress
  /** Where the image keeps the starters and the agent (tests: this machine's). */
  imagePaths?: Partial<typeof boxImagePaths>
}

/**
 * Dev boxes as pods of KUBECONFIG's cluster, or the one Sprout runs in (DEVBOX_DRIVER=kubernetes,
 * decision 037), with the same pool, queue and runtime as local boxes; deployed apps' production
 * servers are pods too (decision 041).
 */
export function createKubernetesDevboxRuntime(
  config: KubernetesRuntimeConfig,
  db: Database,
  options: KubernetesClusterOptions & {
    appProcesses: AppProcessSupportFor
    logger?: DevboxLogger
    sharedPool?: SharedPoolOptions
    /** Proves a box's requests to sprout.internal (boxIdentityKeyFrom of the auth secret). */
    identityKey: Buffer
  },
) {
  const logger = options.logger ?? devboxLogger
  const driver = createKubernetesDriver({
    kubeConfig: options.kubeConfig,
    settings: { ...boxSettingsOf(config), ...options.imagePaths },
    address: options.address,
    reachPods: config.devbox.kubernetes.reachPods,
    appDataDiskMb: config.appsDiskMb,
    egressProxyUrl: egressProxyUrlOf(
      config.devbox.kubernetes.egressProxy,
      options.identityKey,
      logger,
    ),
    agentToken: (boxId) => boxAgentToken(options.identityKey, boxId),
    logger,
  })
  const confinement = podConfinement(config)
  logger.info('Dev box confinement', confinement.enforcement)
  return createRuntimeForDriver(config, db, {
    ...options,
    driver,
    logger,
    deploysDir: path.join(boxesHomeOf(config), 'deploys'),
    startAppServer: driver.startAppServer,
    // The starters are the box image's: a new image, new boxes.
    templateOf: () => `image ${config.devbox.kubernetes.boxImage}`,
    confinement,
  })
}
