import { agentPort } from './agent/agent-protocol.ts'
import type { BoxManifestSettings } from './box-manifests.ts'

/**
 * Where the box image (deploy/box-image/) keeps the starters, their dependencies installed, and
 * the in-box agent (decision 037).
 */
export const boxImagePaths = {
  templatesPath: '/opt/sprout/templates',
  agentPath: '/opt/sprout/agent/box-agent.cjs',
}

/** The labels deploy/kubernetes/ gives the egress proxy's pods and Sprout's own, and the proxy's port. */
export const clusterLabels = {
  egressProxy: { labels: { 'app.kubernetes.io/name': 'sprout-egress-proxy' }, port: 3128 },
  sprout: { 'app.kubernetes.io/name': 'sprout' },
}

/** The port a box's dev server listens on in its pod. */
export const boxDevServerPort = 3000

/** Everything of a box's manifests that comes from the image and the base, not the settings. */
export const boxImageSettings: Pick<
  BoxManifestSettings,
  'templatesPath' | 'agentPath' | 'egressProxy' | 'sproutLabels' | 'devServerPort' | 'agentPort'
> = {
  ...boxImagePaths,
  agentPort,
  egressProxy: clusterLabels.egressProxy,
  sproutLabels: clusterLabels.sprout,
  devServerPort: boxDevServerPort,
}
