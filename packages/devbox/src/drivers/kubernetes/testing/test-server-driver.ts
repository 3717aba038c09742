import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { silentLogger } from '../../../logger.ts'
import { createFakeTemplates } from '../../../testing/devbox-support.ts'
import { createKubernetesDriver, type KubernetesDriverOptions } from '../kubernetes-driver.ts'
import { publishedAddress, startTestApiServer } from './api-server.ts'
import { testBoxSettings } from './test-box-settings.ts'

/**
 * The kubernetes driver through @kubernetes/client-node against a test API server of its own,
 * whose kubelet runs each pod as processes of this machine (decision 037), with the fake
 * template. The "image" is this machine: the templates and the agent are read where they are.
 */
export async function createTestServerDriver(
  options: Pick<KubernetesDriverOptions, 'reachPods'> = {},
) {
  const baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-kubernetes-'))
  const templates = await createFakeTemplates(path.join(baseDirectory, 'templates'))
  const server = await startTestApiServer({
    rootDir: path.join(baseDirectory, 'cluster'),
    imagePaths: [templates],
  })
  const driver = createKubernetesDriver({
    kubeConfig: server.kubeConfig(),
    settings: testBoxSettings(templates),
    address: publishedAddress,
    logger: silentLogger,
    ...options,
  })
  return {
    driver,
    baseDirectory,
    close: async () => {
      await driver.shutdown()
      await server.close()
      await rm(baseDirectory, { recursive: true, force: true, maxRetries: 3 })
    },
  }
}
