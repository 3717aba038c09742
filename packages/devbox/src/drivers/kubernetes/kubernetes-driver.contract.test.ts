import { describeTestServerContract } from './testing/describe-test-server-contract.ts'

// Sprout inside the cluster: the pods' ports reached at their addresses (decision 037).
describeTestServerContract('kubernetes (test API server)')
