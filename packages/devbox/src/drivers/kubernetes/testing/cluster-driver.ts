import { KubeConfig } from '@kubernetes/client-node'
import { boxImageSettings } from '../box-image.ts'
import { createKubernetesDriver } from '../kubernetes-driver.ts'

const environment = process.env

/**
 * Whether this run is `npm run test:kubernetes` against KUBECONFIG's cluster (decision 037):
 * its suites then run there too, and are skipped, saying so, everywhere else.
 */
export const onCluster =
  environment.SPROUT_TEST_KUBERNETES === '1' && Boolean(environment.KUBECONFIG)

/**
 * The driver on KUBECONFIG's cluster, with the box image (KUBERNETES_BOX_IMAGE) in
 * KUBERNETES_NAMESPACE; from a machine outside the cluster its pods are reached through the API
 * server unless KUBERNETES_REACH_PODS=pod-address (decision 040).
 */
export function createClusterDriver() {
  const kubeConfig = new KubeConfig()
  kubeConfig.loadFromDefault()
  return createKubernetesDriver({
    kubeConfig,
    reachPods: environment.KUBERNETES_REACH_PODS === 'pod-address' ? 'pod-address' : 'port-forward',
    settings: {
      ...boxImageSettings,
      namespace: environment.KUBERNETES_NAMESPACE ?? 'sprout-boxes',
      image: environment.KUBERNETES_BOX_IMAGE ?? 'sprout-box:latest',
      runtimeClassName: environment.KUBERNETES_RUNTIME_CLASS || undefined,
      diskMb: 1024,
      memoryMb: 1024,
      cpus: 1,
    },
    logger: console,
  })
}
