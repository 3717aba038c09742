import { setTimeout as delay } from 'node:timers/promises'
import {
  ApiException,
  type CoreV1Api,
  type KubeConfig,
  type V1Pod,
  Watch,
} from '@kubernetes/client-node'
import type { BoxManifestSettings } from './box-manifests.ts'
import { boxPod, boxResourceName } from './box-manifests.ts'

const podStartTimeoutMs = 120_000
const watchRetryMs = 250

export type BoxPodAccess = {
  kubeConfig: KubeConfig
  api: CoreV1Api
  settings: BoxManifestSettings
  /** The egress proxy's URL with this box's credentials (decision 039); none: no way out. */
  egressProxyUrl?: (boxId: string) => Promise<string | undefined>
  /** The token the box's agent answers to (decision 040). */
  agentToken: (boxId: string) => string
  /** Told of each pod once it runs and once it is gone (port-forward listeners; decision 040). */
  podRunning?: (pod: V1Pod) => Promise<void>
  podGone?: (namespace: string, name: string) => void
}

/**
 * The pod of one box: created from its manifest when missing (first use, after a suspend, or
 * once evicted: the claim keeps the workspace), waited for through a watch that resumes from
 * the last resourceVersion it saw, and deleted on suspend and destroy.
 */
export function createBoxPod(access: BoxPodAccess, id: string, onCreated: () => void) {
  return createPod(access, {
    id,
    name: boxResourceName(id),
    manifest: (proxyUrl) =>
      boxPod(id, access.settings, { proxyUrl, agentToken: access.agentToken(id) }),
    onCreated,
  })
}

/**
 * A pod named `name` made from `manifest` whenever it is missing, and removed on demand: a box's,
 * or a production server's (pod-app-servers.ts). `id` names its agent token and egress
 * credentials.
 */
export function createPod(
  access: BoxPodAccess,
  input: {
    id: string
    name: string
    manifest: (proxyUrl: string | undefined) => V1Pod
    onCreated?: () => void
  },
) {
  const { api, settings } = access
  const { id, name } = input
  const namespace = settings.namespace
  let ensuring: Promise<V1Pod> | undefined
  let current: V1Pod | undefined

  const ensure = async (): Promise<V1Pod> => {
    let pod = await readPod(api, namespace, name)
    if (pod?.metadata?.deletionTimestamp) {
      await waitForPod(access, name, (next) => next === undefined)
      pod = undefined
    }
    if (!pod) {
      const body = input.manifest(await access.egressProxyUrl?.(id))
      await api.createNamespacedPod({ namespace, body }).catch((error) => {
        if (!(error instanceof ApiException && error.code === 409)) throw error
      })
      input.onCreated?.()
    }
    const running = await waitForPod(
      access,
      name,
      (next) => next?.status?.phase === 'Running' && next.status.podIP !== undefined,
    )
    if (!running) throw new Error(`The pod ${name} is gone`)
    await access.podRunning?.(running)
    current = running
    return running
  }

  const ensureRunning = async (): Promise<V1Pod> => {
    ensuring ??= ensure().finally(() => {
      ensuring = undefined
    })
    return ensuring
  }

  return {
    name,
    ensureRunning,
    /** The pod as last seen running, for its address. */
    current: () => current,
    /** That pod, without asking the API server, or one made running when none is known. */
    known: async (): Promise<V1Pod> => current ?? ensureRunning(),
    /** Its address stopped answering (evicted, its node lost): the next use asks again. */
    forget: () => {
      current = undefined
    },
    remove: async () => {
      current = undefined
      await api.deleteNamespacedPod({ namespace, name }).catch(ignoreNotFound)
      await waitForPod(access, name, (next) => next === undefined)
      access.podGone?.(namespace, name)
    },
  }
}

/**
 * Resolves with the pod once `done` holds for it (undefined: gone): a list gives the current
 * state and a resourceVersion, a watch from that version every change after it; a dropped watch
 * resumes from the last version it delivered, a 410 lists again (issue 31 "Faults").
 */
export async function waitForPod(
  access: BoxPodAccess,
  name: string,
  done: (pod: V1Pod | undefined) => boolean,
): Promise<V1Pod | undefined> {
  const deadline = Date.now() + podStartTimeoutMs
  const fieldSelector = `metadata.name=${name}`
  const cursor: { version?: string } = {}
  while (Date.now() < deadline) {
    if (cursor.version === undefined) {
      const list = await access.api.listNamespacedPod({
        namespace: access.settings.namespace,
        fieldSelector,
      })
      if (done(list.items[0])) return list.items[0]
      cursor.version = list.metadata?.resourceVersion ?? '0'
    }
    const outcome = await watchOnce(access, fieldSelector, cursor, done, deadline)
    if (outcome.found) return outcome.pod
    if (outcome.expired) cursor.version = undefined
    // A watch that dropped is opened again from its version, not at once in a loop.
    else await delay(watchRetryMs)
  }
  throw new Error(`Pod ${name} did not get ready within ${podStartTimeoutMs / 1000} s`)
}

type WatchOutcome = { pod?: V1Pod; found: boolean; expired: boolean }

/** One watch from `cursor.version`, which follows every event; ends when `done` holds or it drops. */
function watchOnce(
  access: BoxPodAccess,
  fieldSelector: string,
  cursor: { version?: string },
  done: (pod: V1Pod | undefined) => boolean,
  deadline: number,
): Promise<WatchOutcome> {
  return new Promise<WatchOutcome>((resolve) => {
    let controller: AbortController | undefined
    let finished = false
    const finish = (result: WatchOutcome) => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      controller?.abort()
      resolve(result)
    }
    const timer = setTimeout(
      () => finish({ found: false, expired: false }),
      Math.max(0, deadline - Date.now()),
    )
    new Watch(access.kubeConfig)
      .watch(
        `/api/v1/namespaces/${access.settings.namespace}/pods`,
        { fieldSelector, resourceVersion: cursor.version, allowWatchBookmarks: true },
        (type, object: V1Pod & { code?: number }) => {
          if (type === 'ERROR') return finish({ found: false, expired: object.code === 410 })
          cursor.version = object.metadata?.resourceVersion ?? cursor.version
          if (type === 'BOOKMARK') return
          const pod = type === 'DELETED' ? undefined : object
          if (done(pod)) finish({ pod, found: true, expired: false })
        },
        () => finish({ found: false, expired: false }),
      )
      .then((started) => {
        controller = started
        if (finished) started.abort()
      })
  })
}

async function readPod(api: CoreV1Api, namespace: string, name: string) {
  return api.readNamespacedPod({ namespace, name }).catch((error: unknown) => {
    if (error instanceof ApiException && error.code === 404) return undefined
    throw error
  })
}

export function ignoreNotFound(error: unknown): void {
  if (error instanceof ApiException && error.code === 404) return
  throw error
}
