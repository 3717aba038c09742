import { KubeConfig } from '@kubernetes/client-node'
import { describe, it } from 'vitest'
import { describeDriverContract } from '../../testing/driver-contract.ts'
import { boxImagePaths } from './box-image.ts'
import { createKubernetesDriver } from './kubernetes-driver.ts'

// The same contract against a real cluster: only under `npm run test:kubernetes`, which sets
// SPROUT_TEST_KUBERNETES when KUBECONFIG names a cluster (decision 037). It reaches the pods
// through port-forward unless KUBERNETES_REACH_PODS=pod-address (decision 040), and the cluster
// must have the box image (deploy/box-image/).
const environment = process.env
const onCluster = environment.SPROUT_TEST_KUBERNETES === '1' && Boolean(environment.KUBECONFIG)

if (onCluster) {
  describeDriverContract({
    name: "kubernetes (KUBECONFIG's cluster)",
    createDriver: () => {
      const kubeConfig = new KubeConfig()
      kubeConfig.loadFromDefault()
      return createKubernetesDriver({
        kubeConfig,
        // From a machine outside the cluster, pods are reached through the API server.
        reachPods:
          environment.KUBERNETES_REACH_PODS === 'pod-address' ? 'pod-address' : 'port-forward',
        settings: {
          namespace: environment.KUBERNETES_NAMESPACE ?? 'sprout-boxes',
          image: environment.KUBERNETES_BOX_IMAGE ?? 'sprout-box:latest',
          runtimeClassName: environment.KUBERNETES_RUNTIME_CLASS || undefined,
          diskMb: 1024,
          memoryMb: 1024,
          cpus: 1,
          devServerPort: 3000,
          agentPort: 7070,
          templatesPath: '/opt/sprout/templates',
          agentPath: boxImagePaths.agentPath,
          egressProxy: { labels: { 'app.kubernetes.io/name': 'sprout-egress-proxy' }, port: 3128 },
          sproutLabels: { 'app.kubernetes.io/name': 'sprout' },
        },
        logger: console,
      })
    },
    devServerPage: '<div id="root">',
    startTimeoutMs: 300_000,
  })
} else {
  describe("DevboxDriver contract: kubernetes (KUBECONFIG's cluster)", () => {
    it.skip('runs only under `npm run test:kubernetes` with KUBECONFIG set (decision 037)', () => {})
  })
}
