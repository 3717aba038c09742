import { describeTestServerContract } from './testing/describe-test-server-contract.ts'

// Sprout outside the cluster: every connection to a pod's agent and dev server is a port-forward
// of the API server, through the library's PortForward (decision 040).
describeTestServerContract('kubernetes through port-forward (test API server)', {
  reachPods: 'port-forward',
})
