import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { silentLogger } from '../../logger.ts'
import { createFakeTemplates, testCacheDir } from '../../testing/devbox-support.ts'
import { describeDriverContract } from '../../testing/driver-contract.ts'
import { createLocalDriver } from './local-driver.ts'

// The local driver, sandboxed where this machine allows it, against what every driver must do.
// The stand-in template has no dependencies, so the suite pays for no npm install.
let baseDirectory = ''

describeDriverContract({
  name: 'local',
  createDriver: async () => {
    baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-contract-'))
    return createLocalDriver({
      rootDir: path.join(baseDirectory, 'root'),
      templatesDir: await createFakeTemplates(path.join(baseDirectory, 'templates')),
      cacheDir: testCacheDir,
      logger: silentLogger,
    })
  },
  cleanUp: () => rm(baseDirectory, { recursive: true, force: true, maxRetries: 3 }),
  devServerPage: 'fake dev server',
})
