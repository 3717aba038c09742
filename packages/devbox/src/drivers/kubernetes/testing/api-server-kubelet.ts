import { rm } from 'node:fs/promises'
import { claimFolder, type PodHost } from './api-server-pod-host.ts'
import {
  claimsCollection,
  type KubeletState,
  podKey,
  podsCollection,
  signalPod,
  startPod,
  terminatePod,
} from './api-server-pod-runtime.ts'
import type { createResourceStore } from './api-server-store.ts'

export { claimsCollection, podsCollection } from './api-server-pod-runtime.ts'

/**
 * The kubelet and volume binder of the test API server: claims are bound to folders at once, a
 * pod's container runs as a process group of this machine with the pod's mark, and its status
 * goes Pending → Running with podIP 127.0.0.1 as a real kubelet reports it; a deleted pod's
 * processes get SIGTERM, then SIGKILL after its grace period, before the pod is removed
 * (api-server-pod-runtime.ts).
 */
export function createKubelet(
  store: ReturnType<typeof createResourceStore>,
  rootDir: string,
  imagePaths: string[],
) {
  const state: KubeletState = { store, rootDir, imagePaths, running: new Map(), stopped: false }

  // Reactions wait for the change to reach every watcher first, so none sees them out of order.
  const unsubscribePods = store.subscribe(podsCollection, (event) =>
    setImmediate(() => {
      if (event.type === 'ADDED') void startPod(state, event.object)
      else if (event.type === 'MODIFIED' && event.object.metadata.deletionTimestamp) {
        const entry = state.running.get(podKey(event.object))
        if (entry?.stopping) return
        const { namespace } = event.object.metadata
        void terminatePod(state, event.object).then(() => releaseClaims(state, namespace))
      }
    }),
  )
  const unsubscribeClaims = store.subscribe(claimsCollection, (event) =>
    setImmediate(() => {
      const { namespace, name } = event.object.metadata
      if (event.type === 'ADDED') {
        store.update(claimsCollection, namespace, name, (claim) => {
          claim.status = { phase: 'Bound', accessModes: claim.spec?.accessModes }
        })
      } else if (event.type === 'MODIFIED' && event.object.metadata.deletionTimestamp) {
        releaseClaims(state, namespace)
      }
    }),
  )

  return {
    /** Where and how exec runs in a running pod; undefined unless it runs. */
    hostOf: (namespace: string, name: string): PodHost | undefined => {
      const entry = state.running.get(`${namespace}/${name}`)
      return entry && !entry.stopping ? entry.host : undefined
    },
    stop: async () => {
      state.stopped = true
      unsubscribePods()
      unsubscribeClaims()
      await Promise.all(
        [...state.running.values()].map(async (entry) => {
          entry.stopping = true
          await signalPod(entry.host.uid, 'SIGKILL')
        }),
      )
      state.running.clear()
    },
  }
}

/** A claim deleted while a pod used it goes once no pod does (kubernetes.io/pvc-protection). */
function releaseClaims(state: KubeletState, namespace: string): void {
  const { store } = state
  const inUse = (claim: string) =>
    store
      .list(podsCollection, namespace)
      .items.some((pod) =>
        ((pod.spec?.volumes ?? []) as { persistentVolumeClaim?: { claimName: string } }[]).some(
          (volume) => volume.persistentVolumeClaim?.claimName === claim,
        ),
      )
  for (const claim of store.list(claimsCollection, namespace).items) {
    if (claim.metadata.deletionTimestamp && !inUse(claim.metadata.name)) {
      store.remove(claimsCollection, namespace, claim.metadata.name)
      void rm(claimFolder(state.rootDir, namespace, claim.metadata.name), {
        recursive: true,
        force: true,
      })
    }
  }
}
