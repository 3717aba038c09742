// `npm run test:kubernetes`: the dev-box driver contract and the security probes that assume only
// a box, against KUBECONFIG's cluster (decisions 037, 040). Without KUBECONFIG it says so and succeeds: CI has no cluster, and runs the same contract
// against the test API server in `npm test`.
import { spawnSync } from 'node:child_process'

const testFile = 'packages/devbox/src/drivers/kubernetes/kubernetes-driver.cluster.test.ts'
const securityFile = 'tests/security/files.test.ts'

if (!process.env.KUBECONFIG) {
  console.log(
    'test:kubernetes skipped: KUBECONFIG is not set. Set it to a cluster with the box image ' +
      '(KUBERNETES_BOX_IMAGE), a namespace (KUBERNETES_NAMESPACE) and optionally ' +
      'KUBERNETES_RUNTIME_CLASS=gvisor; see docs/decisions/037-kubernetes-driver-and-test-api-server.md.',
  )
  process.exit(0)
}

// The driver contract and the security probes that assume only a box, each run against the
// cluster alone (its suites' titles name it).
const result = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    testFile,
    securityFile,
    '--project',
    'packages',
    '--project',
    'security',
    '--testNamePattern',
    "KUBECONFIG's cluster",
  ],
  { stdio: 'inherit', env: { ...process.env, SPROUT_TEST_KUBERNETES: '1' } },
)
process.exit(result.status ?? 1)
