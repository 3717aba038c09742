import type { V1NetworkPolicy, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node'
import { agentOneRunVariable } from './agent/agent-protocol.ts'
import { type BoxManifestSettings, confinedPod, podsNetworkPolicy } from './box-manifests.ts'

/** Where a production server's deploy is unpacked and its data claim mounted in its pod. */
export const appFolderInside = '/home/sprout/app'
export const appDataInside = '/home/sprout/data'
const appLabel = 'sprout.dev/app'

/** The name label of every production server's pod, and of its app's claim and policy. */
export const appServerLabel = 'sprout-app-server'

const labelsOf = (appId: string) => ({
  'app.kubernetes.io/name': appServerLabel,
  'app.kubernetes.io/managed-by': 'sprout',
  [appLabel]: appId,
})

/** The app's data claim and its servers' network policy are named after the app. */
export const appResourceName = (appId: string) => `sprout-app-${appId}`
/** Each server instance's pod is named after the instance (instance-id.ts). */
export const appServerPodName = (instanceId: string) => `sprout-app-server-${instanceId}`

/** The app's data (`DATABASE_URL` points into it): kept across deploys, restarts and idle stops. */
export function appDataClaim(
  appId: string,
  settings: BoxManifestSettings,
  sizeMb: number,
): V1PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: appResourceName(appId),
      namespace: settings.namespace,
      labels: labelsOf(appId),
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: `${sizeMb}Mi` } },
    },
  }
}

/**
 * One production server of an app (confinedPod): an empty folder its deploy is unpacked into
 * before the server starts, and the app's data claim (docs/decisions/041-production-servers-as-pods.md).
 */
export function appServerPod(
  input: { appId: string; instanceId: string },
  settings: BoxManifestSettings,
  access: { agentToken: string; proxyUrl?: string },
): V1Pod {
  return confinedPod({
    name: appServerPodName(input.instanceId),
    labels: { ...labelsOf(input.appId), 'sprout.dev/instance': input.instanceId },
    settings,
    ...access,
    workingDir: appFolderInside,
    volumes: [
      { name: 'app', mountPath: appFolderInside, source: { emptyDir: { sizeLimit: '1Gi' } } },
      {
        name: 'data',
        mountPath: appDataInside,
        source: { persistentVolumeClaim: { claimName: appResourceName(input.appId) } },
      },
    ],
    env: [
      { name: 'NODE_ENV', value: 'production' },
      { name: 'DATABASE_URL', value: `file:${appDataInside}/app.db` },
      { name: agentOneRunVariable, value: '1' },
    ],
    // The pod ends with its server, even when the instance that started it is gone: never a
    // pod left running an idle agent (pod-app-servers.ts deletes the ended ones).
    restartPolicy: 'Never',
  })
}

/** The app's servers: the same default deny as a box's (in only from Sprout, out only the proxy). */
export function appNetworkPolicy(appId: string, settings: BoxManifestSettings): V1NetworkPolicy {
  return podsNetworkPolicy(appResourceName(appId), labelsOf(appId), { [appLabel]: appId }, settings)
}
