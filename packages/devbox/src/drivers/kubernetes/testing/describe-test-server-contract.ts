import { describeDriverContract } from '../../../testing/driver-contract.ts'
import type { KubernetesDriverOptions } from '../kubernetes-driver.ts'
import { createTestServerDriver } from './test-server-driver.ts'

/** The driver contract for the kubernetes driver against the test API server (decision 037). */
export function describeTestServerContract(
  name: string,
  options: Pick<KubernetesDriverOptions, 'reachPods'> = {},
): void {
  let setup: Awaited<ReturnType<typeof createTestServerDriver>> | undefined
  describeDriverContract({
    name,
    createDriver: async () => {
      setup = await createTestServerDriver(options)
      return setup.driver
    },
    cleanUp: async () => {
      await setup?.close()
    },
    devServerPage: 'fake dev server',
  })
}
