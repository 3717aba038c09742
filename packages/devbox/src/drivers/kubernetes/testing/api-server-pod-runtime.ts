import { type ChildProcess, spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { setTimeout as delay } from 'node:timers/promises'
import { type PodHost, podHost, podProcessIds, portsAnnotation } from './api-server-pod-host.ts'
import type { Collection } from './api-server-status.ts'
import type { createResourceStore, StoredObject } from './api-server-store.ts'

export const podsCollection: Collection = { group: '', resource: 'pods', kind: 'Pod' }
export const claimsCollection: Collection = {
  group: '',
  resource: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
}

type RunningPod = { host: PodHost; main?: ChildProcess; stopping: boolean }

/** What the test kubelet's pods share: the store, their folders, the pods it runs. */
export type KubeletState = {
  store: ReturnType<typeof createResourceStore>
  rootDir: string
  imagePaths: string[]
  running: Map<string, RunningPod>
  stopped: boolean
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z')
const pendingRetryMs = 200
const restartDelayMs = 1000

export const podKey = (pod: StoredObject) => `${pod.metadata.namespace}/${pod.metadata.name}`

/** Pending while its claims are missing, then its container runs and it reports Running. */
export async function startPod(state: KubeletState, pod: StoredObject): Promise<void> {
  const { store } = state
  const { namespace, name } = pod.metadata
  if (state.stopped) return
  store.update(podsCollection, namespace, name, (object) => {
    object.status = {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: now() }],
      qosClass: 'Guaranteed',
    }
  })
  const claimBound = (claimName: string) => {
    const claim = store.get(claimsCollection, namespace, claimName)
    return claim !== undefined && claim.metadata.deletionTimestamp === undefined
  }
  let host = await podHost(state.rootDir, state.imagePaths, pod, claimBound)
  while ('waiting' in host) {
    await delay(pendingRetryMs)
    const current = store.get(podsCollection, namespace, name)
    const gone = current?.metadata.uid !== pod.metadata.uid || current?.metadata.deletionTimestamp
    if (state.stopped || gone) return
    host = await podHost(state.rootDir, state.imagePaths, pod, claimBound)
  }
  if (state.stopped) return
  const entry: RunningPod = { host, stopping: false }
  state.running.set(podKey(pod), entry)
  startContainer(state, pod, entry)
  const [container] = (pod.spec?.containers ?? []) as { name: string; image: string }[]
  store.update(podsCollection, namespace, name, (object) => {
    object.metadata.annotations = {
      ...object.metadata.annotations,
      [portsAnnotation]: JSON.stringify(host.ports),
    }
    object.status = {
      phase: 'Running',
      conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: now(),
      })),
      hostIP: '127.0.0.1',
      podIP: '127.0.0.1',
      podIPs: [{ ip: '127.0.0.1' }],
      startTime: now(),
      qosClass: 'Guaranteed',
      containerStatuses: [
        {
          name: container?.name,
          image: container?.image,
          imageID: '',
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: now() } },
        },
      ],
    }
  })
}

/** The container's command as a process group of its own; started again when it exits. */
function startContainer(state: KubeletState, pod: StoredObject, entry: RunningPod): void {
  const [file, ...args] = entry.host.command
  if (!file) return
  const child = spawn(file, args, {
    cwd: entry.host.cwd,
    env: entry.host.env,
    detached: true,
    stdio: 'ignore',
  })
  entry.main = child
  child.on('error', () => {})
  child.on('exit', (code) => {
    if (entry.stopping || state.running.get(podKey(pod)) !== entry) return
    if (pod.spec?.restartPolicy === 'Never') return containerEnded(state, pod, code ?? 1)
    // restartPolicy Always, as a Deployment's or a box's pod has it.
    state.store.update(podsCollection, pod.metadata.namespace, pod.metadata.name, (object) => {
      const statuses = (object.status?.containerStatuses ?? []) as { restartCount: number }[]
      for (const status of statuses) status.restartCount += 1
    })
    setTimeout(() => {
      if (!entry.stopping) startContainer(state, pod, entry)
    }, restartDelayMs).unref()
  })
}

/** restartPolicy Never: the pod stays, Succeeded or Failed by its container's exit code. */
function containerEnded(state: KubeletState, pod: StoredObject, exitCode: number): void {
  state.store.update(podsCollection, pod.metadata.namespace, pod.metadata.name, (object) => {
    const status = (object.status ?? {}) as { phase?: string; containerStatuses?: unknown[] }
    status.phase = exitCode === 0 ? 'Succeeded' : 'Failed'
    for (const container of (status.containerStatuses ?? []) as Record<string, unknown>[]) {
      container.ready = false
      container.state = { terminated: { exitCode, finishedAt: now() } }
    }
    object.status = status
  })
}

/** SIGTERM to every process of the pod, SIGKILL after its grace period, then the pod goes. */
export async function terminatePod(state: KubeletState, pod: StoredObject): Promise<void> {
  const entry = state.running.get(podKey(pod))
  if (entry) {
    entry.stopping = true
    const graceSeconds = Number(pod.spec?.terminationGracePeriodSeconds ?? 30)
    await signalPod(pod.metadata.uid, 'SIGTERM')
    const deadline = Date.now() + graceSeconds * 1000
    while ((await podProcessIds(pod.metadata.uid)).length > 0 && Date.now() < deadline) {
      await delay(100)
    }
    await signalPod(pod.metadata.uid, 'SIGKILL')
    state.running.delete(podKey(pod))
    for (const folder of entry.host.scratch) await rm(folder, { recursive: true, force: true })
  }
  state.store.remove(podsCollection, pod.metadata.namespace, pod.metadata.name)
}

export async function signalPod(uid: string, signal: NodeJS.Signals): Promise<void> {
  for (const pid of await podProcessIds(uid)) {
    try {
      process.kill(pid, signal)
    } catch {
      // Gone meanwhile.
    }
  }
}
