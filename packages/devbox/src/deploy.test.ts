import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDeploy, currentDeployId, DeployBuildError } from './deploy.ts'
import type { Devbox } from './devbox-driver.ts'
import { createLocalDriver, type LocalDriver } from './drivers/local/local-driver.ts'
import { silentLogger } from './logger.ts'
import { resolveDeployFile } from './resolve-deploy-file.ts'
import { createFakeTemplates, testCacheDir } from './testing/devbox-support.ts'

let baseDirectory: string
let deploysDir: string
let driver: LocalDriver
let box: Devbox
const appId = 'my-app'

beforeAll(async () => {
  baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-deploy-'))
  deploysDir = path.join(baseDirectory, 'deploys')
  driver = createLocalDriver({
    rootDir: path.join(baseDirectory, 'root'),
    templatesDir: await createFakeTemplates(path.join(baseDirectory, 'templates')),
    cacheDir: testCacheDir,
    logger: silentLogger,
  })
  box = await driver.provision('vite-react')
}, 60_000)

afterAll(async () => {
  await driver.shutdown()
  await rm(baseDirectory, { recursive: true, force: true })
})

const served = async (urlPath: string) => {
  const filePath = await resolveDeployFile(deploysDir, appId, urlPath)
  return filePath === undefined ? undefined : readFile(filePath, 'utf8')
}

describe('deploy', () => {
  it('serves nothing before the first deploy', async () => {
    expect(await resolveDeployFile(deploysDir, appId, '/')).toBeUndefined()
  })

  it('builds in the box and serves the build with an SPA fallback', async () => {
    const result = await buildDeploy({ box, deploysDir, appId, timeoutSeconds: 30 })
    expect(result.output).toContain('built first version')
    expect(await currentDeployId(deploysDir, appId)).toBe(result.deployId)
    expect(await served('/')).toBe('<!doctype html><title>first version</title>')
    expect(await served('/index.html?utm=1')).toContain('first version')
    expect(await served('/assets/app.js')).toBe('console.log("built")')
    expect(await served('/settings/profile')).toContain('first version')
    expect(await served('/assets/missing.js')).toBeUndefined()
  })

  it.each([
    '/../../../etc/passwd',
    '/assets/../../current/index.html',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/..%2f..%2fetc%2fpasswd',
    '/%00index.html',
    '/..\\..\\etc\\passwd',
    '/%E0%A4%A',
  ])('never resolves %s outside the deploy', async (urlPath) => {
    const filePath = await resolveDeployFile(deploysDir, appId, urlPath)
    expect(filePath).toBeUndefined()
  })

  it('keeps serving the previous deploy while a new one builds and when a build fails', async () => {
    await box.files.write('src/message.txt', 'second version')
    await box.files.write('src/slow', '')
    const building = buildDeploy({ box, deploysDir, appId, timeoutSeconds: 30 })
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(await served('/')).toContain('first version')
    await building
    expect(await served('/')).toContain('second version')
    await box.files.delete('src/slow')

    const before = await currentDeployId(deploysDir, appId)
    await box.files.write('src/message.txt', 'third version')
    await box.files.write('src/broken', '')
    const failure = await buildDeploy({ box, deploysDir, appId, timeoutSeconds: 30 }).catch(
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(DeployBuildError)
    expect((failure as DeployBuildError).message).toContain('src/broken: syntax error on line 1')
    expect(await currentDeployId(deploysDir, appId)).toBe(before)
    expect(await served('/')).toContain('second version')
    await box.files.delete('src/broken')
  })

  it('does not copy symbolic links out of the build', async () => {
    await box.files.write('src/link', '')
    const result = await buildDeploy({ box, deploysDir, appId, timeoutSeconds: 30 })
    await box.files.delete('src/link')
    expect(existsSync(path.join(box.workspacePath, 'dist/leak'))).toBe(true)
    expect(await readdir(result.directory)).toEqual(['assets', 'index.html'])
    expect(await served('/leak')).toContain('third version')
  })

  it('keeps only a few old deploys', async () => {
    for (let index = 0; index < 3; index += 1) {
      await buildDeploy({ box, deploysDir, appId, timeoutSeconds: 30, keep: 1 })
    }
    const folders = (await readdir(path.join(deploysDir, appId))).filter(
      (name) => name !== 'current',
    )
    expect(folders).toHaveLength(2)
  })
})
