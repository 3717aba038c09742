import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { silentLogger } from '../../logger.ts'
import { createFakeTemplates } from '../../testing/devbox-support.ts'
import { describeDriverContract } from '../../testing/driver-contract.ts'
import { createKubernetesDriver } from './kubernetes-driver.ts'
import { publishedAddress, startTestApiServer, type TestApiServer } from './testing/api-server.ts'
import { testBoxSettings } from './testing/test-box-settings.ts'

// The kubernetes driver through @kubernetes/client-node against the test API server, whose
// kubelet runs each pod as processes of this machine (decision 037). The "image" is this
// machine: the templates and the agent are read where they are.
let baseDirectory = ''
let server: TestApiServer | undefined

describeDriverContract({
  name: 'kubernetes (test API server)',
  createDriver: async () => {
    baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-kubernetes-contract-'))
    const templates = await createFakeTemplates(path.join(baseDirectory, 'templates'))
    server = await startTestApiServer({
      rootDir: path.join(baseDirectory, 'cluster'),
      imagePaths: [templates],
    })
    return createKubernetesDriver({
      kubeConfig: server.kubeConfig(),
      settings: testBoxSettings(templates),
      address: publishedAddress,
      logger: silentLogger,
    })
  },
  cleanUp: async () => {
    await server?.close()
    await rm(baseDirectory, { recursive: true, force: true, maxRetries: 3 })
  },
  devServerPage: 'fake dev server',
})
