import type {
  V1EnvVar,
  V1NetworkPolicy,
  V1PersistentVolumeClaim,
  V1Pod,
  V1Volume,
} from '@kubernetes/client-node'
import { proxyVariables } from '../../egress/proxy-variables.ts'
import { agentPortVariable, agentTokenVariable } from './agent/agent-protocol.ts'

/** What every box of a Sprout installation shares (docs/architecture/scale-out.md, decision 037). */
export type BoxManifestSettings = {
  namespace: string
  /** The box image (deploy/box-image/): Node 24, git, the starters' dependencies, the agent. */
  image: string
  /** KUBERNETES_RUNTIME_CLASS, e.g. `gvisor`; none means the cluster's default runtime. */
  runtimeClassName?: string
  /** DEVBOX_DISK_MB: the workspace claim's size. */
  diskMb: number
  memoryMb: number
  cpus: number
  /** The port the dev server listens on inside the pod. */
  devServerPort: number
  /** The port the in-box agent, the pod's main process, listens on (decision 040). */
  agentPort: number
  /** Folder of templates/{packType} in the image. */
  templatesPath: string
  /** The in-box agent's entry in the image. */
  agentPath: string
  /** Labels of the egress proxy's pods and its port: the only place a box may connect to. */
  egressProxy: { labels: Record<string, string>; port: number }
  /** Labels of Sprout's own pods: the only ones that may reach a box's dev server. */
  sproutLabels: Record<string, string>
}

/** The uid and gid of every box process (decision 012's box users, one for all pods). */
export const boxUserId = 61000
export const workspaceMountPath = '/home/sprout/workspace'
const boxLabel = 'sprout.dev/box'
const boxIdPattern = /^[a-z0-9]([a-z0-9-]{0,50}[a-z0-9])?$/

/** Refuses an id that is not a lowercase DNS label: it names the pod, claim and policy. */
export function assertBoxId(id: string): void {
  if (!boxIdPattern.test(id)) {
    throw new Error(
      `Box id ${JSON.stringify(id)} is not a name: lowercase letters, digits and dashes, at most 52`,
    )
  }
}

/** The pod, claim and policy of a box are all named after it. */
export const boxResourceName = (id: string) => `sprout-box-${id}`

const labelsOf = (id: string) => ({
  'app.kubernetes.io/name': 'sprout-box',
  'app.kubernetes.io/managed-by': 'sprout',
  [boxLabel]: id,
})

/** The workspace volume: kept while the box sleeps, deleted only with the box. */
export function workspaceClaim(id: string, settings: BoxManifestSettings): V1PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: boxResourceName(id), namespace: settings.namespace, labels: labelsOf(id) },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: `${settings.diskMb}Mi` } },
    },
  }
}

/**
 * The box's pod (confinedPod): the workspace claim is its working directory, a scratch /tmp
 * beside it, and the dev server's port is Sprout's to reach (decision 037).
 */
export function boxPod(
  id: string,
  settings: BoxManifestSettings,
  access: { agentToken: string; proxyUrl?: string },
): V1Pod {
  return confinedPod({
    name: boxResourceName(id),
    labels: labelsOf(id),
    settings,
    ...access,
    workingDir: workspaceMountPath,
    volumes: [
      {
        name: 'workspace',
        mountPath: workspaceMountPath,
        source: { persistentVolumeClaim: { claimName: boxResourceName(id) } },
      },
    ],
    env: [
      { name: 'SPROUT_RUN_DIR', value: '/tmp/sprout' },
      { name: 'SPROUT_TEMPLATES', value: settings.templatesPath },
    ],
  })
}

/**
 * A pod of Sprout's making, box or production server: non-root, no privilege escalation, no
 * capability, the runtime's seccomp profile, a read-only root with only its volumes and a
 * scratch /tmp writable, no service account token, and the local boxes' limits as its resources
 * (decision 012, issue 31). Its main process is the in-box agent, which only the holder of
 * `agentToken` may call (decision 040). `proxyUrl` is the egress proxy's address with the pod's
 * credentials (decision 039): the only way out its network policy leaves.
 */
export function confinedPod(input: {
  name: string
  labels: Record<string, string>
  settings: BoxManifestSettings
  agentToken: string
  proxyUrl?: string
  workingDir: string
  volumes: { name: string; mountPath: string; source: Omit<V1Volume, 'name'> }[]
  env: V1EnvVar[]
  /** `Always` for a box (its agent idles until the pod is deleted). */
  restartPolicy?: 'Always' | 'Never'
}): V1Pod {
  const { settings, proxyUrl } = input
  const memory = `${settings.memoryMb}Mi`
  const cpu = String(settings.cpus)
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: input.name, namespace: settings.namespace, labels: input.labels },
    spec: {
      ...(settings.runtimeClassName ? { runtimeClassName: settings.runtimeClassName } : {}),
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      restartPolicy: input.restartPolicy ?? 'Always',
      terminationGracePeriodSeconds: 5,
      securityContext: {
        runAsNonRoot: true,
        runAsUser: boxUserId,
        runAsGroup: boxUserId,
        fsGroup: boxUserId,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [
        {
          name: 'box',
          image: settings.image,
          // Commands, files and servers come through the agent (decision 040).
          command: ['node', settings.agentPath],
          workingDir: input.workingDir,
          env: [
            { name: 'PORT', value: String(settings.devServerPort) },
            // Sprout reaches the server on the pod's address, not its loopback.
            { name: 'HOST', value: '0.0.0.0' },
            { name: 'HOME', value: '/tmp/home' },
            ...input.env,
            { name: agentPortVariable, value: String(settings.agentPort) },
            { name: agentTokenVariable, value: input.agentToken },
            // Node's compiled (and type-stripped) modules kept for the agent's next start: about
            // a third of its start-up on a loaded machine (decision 037).
            { name: 'NODE_COMPILE_CACHE', value: '/tmp/node-compile-cache' },
            ...Object.entries(proxyUrl ? proxyVariables(proxyUrl) : {}).map(([name, value]) => ({
              name,
              value,
            })),
          ],
          ports: [
            { name: 'dev-server', containerPort: settings.devServerPort, protocol: 'TCP' },
            { name: 'agent', containerPort: settings.agentPort, protocol: 'TCP' },
          ],
          resources: { requests: { cpu, memory }, limits: { cpu, memory } },
          securityContext: {
            allowPrivilegeEscalation: false,
            privileged: false,
            readOnlyRootFilesystem: true,
            runAsNonRoot: true,
            capabilities: { drop: ['ALL'] },
          },
          volumeMounts: [
            ...input.volumes.map(({ name, mountPath }) => ({ name, mountPath })),
            { name: 'tmp', mountPath: '/tmp' },
          ],
        },
      ],
      volumes: [
        ...input.volumes.map(({ name, source }) => ({ name, ...source })),
        { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
      ],
    },
  }
}

/**
 * Default deny for the box's pod: in, only Sprout's pods to the dev server's and the agent's
 * ports; out, only the egress proxy (no cluster DNS, no other pod, no Sprout;
 * docs/architecture/scale-out.md).
 */
export function boxNetworkPolicy(id: string, settings: BoxManifestSettings): V1NetworkPolicy {
  return podsNetworkPolicy(boxResourceName(id), labelsOf(id), { [boxLabel]: id }, settings)
}

/** The same default deny for the pods `podLabels` select (a box's, or an app's servers). */
export function podsNetworkPolicy(
  name: string,
  labels: Record<string, string>,
  podLabels: Record<string, string>,
  settings: BoxManifestSettings,
): V1NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: settings.namespace, labels },
    spec: {
      podSelector: { matchLabels: podLabels },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        {
          _from: [{ podSelector: { matchLabels: settings.sproutLabels } }],
          ports: [
            { protocol: 'TCP', port: settings.devServerPort },
            { protocol: 'TCP', port: settings.agentPort },
          ],
        },
      ],
      egress: [
        {
          to: [{ podSelector: { matchLabels: settings.egressProxy.labels } }],
          ports: [{ protocol: 'TCP', port: settings.egressProxy.port }],
        },
      ],
    },
  }
}
