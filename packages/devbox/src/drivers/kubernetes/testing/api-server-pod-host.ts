import { mkdir, readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { findFreePort } from '../../local/processes/free-port.ts'
import type { StoredObject } from './api-server-store.ts'

/** The environment variable that marks every process of a test pod, so its end finds them all. */
export const podMarker = 'SPROUT_TEST_POD'

/** Where a pod's container ports are published on loopback: `{ "3000": 41234 }`. */
export const portsAnnotation = 'test.sprout.dev/ports'

type Container = {
  command?: string[]
  args?: string[]
  env?: { name: string; value?: string }[]
  workingDir?: string
  ports?: { containerPort: number }[]
  volumeMounts?: { name: string; mountPath: string }[]
}
type Volume = { name: string; persistentVolumeClaim?: { claimName: string }; emptyDir?: object }
export type PodSpec = { containers: Container[]; volumes?: Volume[] }

/** A pod as this machine runs it: its folders, environment and published ports. */
export type PodHost = {
  uid: string
  command: string[]
  cwd: string
  env: Record<string, string>
  ports: Record<string, number>
  /** Folders of its emptyDir volumes, removed with the pod. */
  scratch: string[]
}

/**
 * A container's view mapped onto this machine, which has no mount or network namespace per pod
 * (decision 037): a path under a volume's mountPath becomes the volume's folder, in the working
 * directory and in environment values (after a `file:` too), and a value equal to a container port becomes the loopback
 * port published for it; `imagePaths` are the image's own files on this machine (templates, the
 * agent), left as they are even under a mountPath such as /tmp. `waiting` while a claim is missing.
 */
export async function podHost(
  rootDir: string,
  imagePaths: string[],
  pod: StoredObject,
  claimBound: (name: string) => boolean,
): Promise<PodHost | { waiting: string }> {
  const spec = pod.spec as PodSpec
  const container = spec.containers[0]
  if (!container) return { waiting: 'the pod has no container' }
  const folders = new Map<string, string>()
  const scratch: string[] = []
  for (const volume of spec.volumes ?? []) {
    if (volume.persistentVolumeClaim) {
      const claim = volume.persistentVolumeClaim.claimName
      if (!claimBound(claim)) return { waiting: `persistentvolumeclaim "${claim}" not found` }
      folders.set(volume.name, claimFolder(rootDir, pod.metadata.namespace, claim))
    } else {
      const folder = path.join(rootDir, 'pods', pod.metadata.uid, volume.name)
      scratch.push(folder)
      folders.set(volume.name, folder)
    }
  }
  const mounts = (container.volumeMounts ?? []).flatMap((mount) => {
    const folder = folders.get(mount.name)
    return folder ? [{ mountPath: mount.mountPath, folder }] : []
  })
  for (const { folder } of mounts) await mkdir(folder, { recursive: true })
  const ports: Record<string, number> = {}
  for (const { containerPort } of container.ports ?? []) {
    ports[String(containerPort)] = await findFreePort()
  }
  const under = (value: string, folder: string) =>
    value === folder || value.startsWith(`${folder}/`)
  const mapped = (value: string): string => {
    if (ports[value] !== undefined) return String(ports[value])
    if (value.startsWith('file:')) return `file:${mapped(value.slice('file:'.length))}`
    if (imagePaths.some((imagePath) => under(value, imagePath))) return value
    const mount = mounts.find(({ mountPath }) => under(value, mountPath))
    return mount ? mount.folder + value.slice(mount.mountPath.length) : value
  }
  const env: Record<string, string> = {}
  for (const variable of container.env ?? []) env[variable.name] = mapped(variable.value ?? '')
  // The image's Node is this process's Node (decision 037).
  env.PATH = [path.dirname(process.execPath), env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(':')
  env[podMarker] = pod.metadata.uid
  return {
    uid: pod.metadata.uid,
    command: [...(container.command ?? []), ...(container.args ?? [])],
    cwd: mapped(container.workingDir ?? '/'),
    env,
    ports,
    scratch,
  }
}

export function claimFolder(rootDir: string, namespace: string, claim: string): string {
  return path.join(rootDir, 'volumes', namespace, claim)
}

/** The processes of a pod: every one whose environment carries its mark. */
export async function podProcessIds(uid: string): Promise<number[]> {
  const mark = Buffer.from(`${podMarker}=${uid}\0`)
  const found: number[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const environ = await readFile(`/proc/${entry}/environ`).catch(() => undefined)
    if (environ?.includes(mark)) found.push(Number(entry))
  }
  return found
}
