import { describe, it } from 'vitest'
import { describeDriverContract } from '../../testing/driver-contract.ts'
import { createClusterDriver, onCluster } from './testing/cluster-driver.ts'

// The same contract against a real cluster: only under `npm run test:kubernetes`, which sets
// SPROUT_TEST_KUBERNETES when KUBECONFIG names a cluster (decision 037). It reaches the pods
// through port-forward unless KUBERNETES_REACH_PODS=pod-address (decision 040), and the cluster
// must have the box image (deploy/box-image/).
if (onCluster) {
  describeDriverContract({
    name: "kubernetes (KUBECONFIG's cluster)",
    createDriver: createClusterDriver,
    devServerPage: '<div id="root">',
    startTimeoutMs: 300_000,
  })
} else {
  describe("DevboxDriver contract: kubernetes (KUBECONFIG's cluster)", () => {
    it.skip('runs only under `npm run test:kubernetes` with KUBECONFIG set (decision 037)', () => {})
  })
}
