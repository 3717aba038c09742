import { statSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { devServerAnswers } from '../../dev-server-request.ts'
import { describeTestServerContract } from './testing/describe-test-server-contract.ts'
import { createTestServerDriver } from './testing/test-server-driver.ts'

// Sprout outside the cluster: every connection to a pod's agent and dev server is a port-forward
// of the API server, through the library's PortForward (decision 040).
describeTestServerContract('kubernetes through port-forward (test API server)', {
  reachPods: 'port-forward',
})

it("forwards through unix sockets in a folder only Sprout's user may enter, not a loopback port", async () => {
  const setup = await createTestServerDriver({ reachPods: 'port-forward' })
  try {
    const box = await setup.driver.provision('vite-react', { id: 'forwarded' })
    const target = box.devServer.target()
    expect(target && 'socketPath' in target).toBe(true)
    const socketPath = target && 'socketPath' in target ? target.socketPath : ''
    expect(statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700)
    expect(await devServerAnswers(target)).toBe(true)
  } finally {
    await setup.close()
  }
}, 120_000)
