import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDeploy } from '../../deploy.ts'
import { requestDevServer } from '../../dev-server-request.ts'
import { silentLogger } from '../../logger.ts'
import { resolveDeployFile } from '../../resolve-deploy-file.ts'
import {
  answersHttp,
  createFakeTemplates,
  createTestDriver,
  devServerText,
  hasBubblewrap,
  printedGroupId,
  testCacheDir,
  waitFor,
} from '../../testing/devbox-support.ts'
import { createLocalDriver, type LocalDevbox, type LocalDriver } from './local-driver.ts'
import { isProcessGroupAlive } from './processes/process-group.ts'

describe('local driver with the vite-react template', () => {
  let rootDir: string
  let driver: LocalDriver
  let reopened: LocalDriver
  let box: LocalDevbox

  const createDriver = () => createTestDriver({ rootDir })

  beforeAll(async () => {
    rootDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-driver-'))
    driver = createDriver()
    reopened = createDriver()
    box = await driver.provision('vite-react')
  }, 120_000)

  afterAll(async () => {
    await driver.shutdown()
    await reopened.shutdown()
    await rm(rootDir, { recursive: true, force: true })
  })

  it('runs sandboxed when bubblewrap is available', () => {
    expect(driver.sandboxed).toBe(hasBubblewrap)
  })

  it('provisions a git workspace whose dev server serves the starter page', async () => {
    expect(box.workspacePath).toBe(path.join(await realpath(rootDir), 'workspaces', box.id))
    expect(box.devServer.status()).toBe('running')
    const target = box.devServer.target()
    const page = await requestDevServer(target, '/', {
      headers: { host: 'my-app.preview.localhost:3000' },
    })
    expect(page.status).toBe(200)
    const html = page.body
    expect(html).toContain('<title>My Sprout App</title>')
    expect(html).toContain('<div id="root"></div>')
    const app = await devServerText(target, '/src/App.tsx')
    expect(app).toContain('Your app starts here.')

    const log = await box.exec('git log --format="%an <%ae> %s"', { timeoutSeconds: 10 })
    expect(log.output.trim()).toBe('Sprout <sprout@localhost> Start from the vite-react template')
    expect(existsSync(path.join(box.workspacePath, 'node_modules/vite/package.json'))).toBe(true)
  })

  it('provisions another box from the warm cache in well under 15 seconds', async () => {
    const startedAt = Date.now()
    const second = await driver.provision('vite-react', { id: 'second-box' })
    const durationMs = Date.now() - startedAt
    expect(durationMs).toBeLessThan(15_000)
    expect(second.devServer.target()).not.toEqual(box.devServer.target())
    expect(await answersHttp(second.devServer.target())).toBe(true)
    await driver.destroy('second-box')
  }, 30_000)

  it('commits changes at a checkpoint and nothing when the workspace is clean', async () => {
    expect(await box.checkpoint('Nothing changed')).toBeUndefined()
    await box.files.write('src/greeting.ts', "export const greeting = 'hello'\n")
    const commitId = await box.checkpoint('Add a greeting')
    expect(commitId).toMatch(/^[0-9a-f]{40}$/)
    const log = await box.exec('git log -1 --format="%H %s" && git status --porcelain', {
      timeoutSeconds: 10,
    })
    expect(log.output.trim()).toBe(`${commitId} Add a greeting`)
  })

  it('builds and deploys the starter app', async () => {
    const deploysDir = path.join(rootDir, 'deploys')
    const result = await buildDeploy({ box, deploysDir, appId: 'starter', timeoutSeconds: 60 })
    expect(result.output).toContain('vite build')
    const indexFile = await resolveDeployFile(deploysDir, 'starter', '/')
    const html = await readFile(indexFile ?? '', 'utf8')
    expect(html).toContain('<title>My Sprout App</title>')
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? ''
    const bundle = await readFile(
      (await resolveDeployFile(deploysDir, 'starter', script)) ?? '',
      'utf8',
    )
    expect(bundle).toContain('Your app starts here.')
  }, 70_000)

  it('restarts a dev server that died and counts the restart', async () => {
    const groupId = box.devServer.processGroupId()
    expect(groupId).toBeDefined()
    process.kill(-(groupId ?? 0), 'SIGKILL')
    await waitFor(() => box.devServer.status() !== 'running')
    await waitFor(() => box.devServer.status() === 'running', 30_000)
    expect(box.devServer.restarts()).toBe(1)
    expect(await answersHttp(box.devServer.target())).toBe(true)
  }, 40_000)

  it('offers no target while its dev server stops, so no request reaches the dying server', async () => {
    expect(box.devServer.target()).toBeDefined()
    const stopping = box.devServer.stop()
    // A restore of the preview's data stops the server: the preview waits for the next start
    // rather than answer 502 from a server on its way out.
    expect(box.devServer.target()).toBeUndefined()
    await stopping
    expect(box.devServer.target()).toBeUndefined()
    await box.devServer.start()
    expect(await answersHttp(box.devServer.target())).toBe(true)
  }, 40_000)

  it('reopens a box after a server restart with its workspace intact', async () => {
    const oldTarget = box.devServer.target()
    const oldGroupId = box.devServer.processGroupId() ?? 0
    await driver.shutdown()
    expect(box.devServer.status()).toBe('stopped')
    expect(isProcessGroupAlive(oldGroupId)).toBe(false)
    expect(await answersHttp(oldTarget)).toBe(false)

    const again = await reopened.open(box.id, 'vite-react')
    expect(again.devServer.status()).toBe('running')
    expect(await answersHttp(again.devServer.target())).toBe(true)
    expect(await again.files.read('src/greeting.ts')).toContain('hello')
    box = again
  }, 40_000)

  it('destroys a box: workspace removed, processes gone', async () => {
    const groupId = box.devServer.processGroupId() ?? 0
    const target = box.devServer.target()
    await reopened.destroy(box.id)
    expect(existsSync(box.workspacePath)).toBe(false)
    expect(isProcessGroupAlive(groupId)).toBe(false)
    expect(await answersHttp(target)).toBe(false)
    const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    expect(processes).not.toContain(box.workspacePath)
    await expect(reopened.open(box.id, 'vite-react')).rejects.toThrow(/has no workspace/)
  })
})

describe('local driver without a sandbox (DEVBOX_SANDBOX=off)', () => {
  it('provisions, runs commands with a minimal environment and destroys', async () => {
    const baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-plain-'))
    const warnings: string[] = []
    const driver = createLocalDriver({
      rootDir: path.join(baseDirectory, 'root'),
      templatesDir: await createFakeTemplates(path.join(baseDirectory, 'templates')),
      cacheDir: testCacheDir,
      sandbox: 'off',
      logger: { ...silentLogger, warn: (message) => warnings.push(message) },
    })
    try {
      expect(driver.sandboxed).toBe(false)
      expect(warnings).toEqual([expect.stringContaining('sandbox is off')])
      const box = await driver.provision('vite-react')
      expect(await devServerText(box.devServer.target())).toBe('fake dev server')
      process.env.SPROUT_TEST_PRODUCT_SECRET = 'do-not-leak'
      const result = await box.exec(
        'echo "[$SPROUT_TEST_PRODUCT_SECRET]" && git log --oneline | wc -l',
        {
          timeoutSeconds: 10,
        },
      )
      delete process.env.SPROUT_TEST_PRODUCT_SECRET
      expect(result.output).toBe('[]\n1\n')
      const groupId = box.devServer.processGroupId() ?? 0
      await driver.destroy(box.id)
      expect(existsSync(box.workspacePath)).toBe(false)
      expect(isProcessGroupAlive(groupId)).toBe(false)
    } finally {
      await driver.shutdown()
      await rm(baseDirectory, { recursive: true, force: true })
    }
  }, 60_000)

  it('leaves no process behind when the server is killed without stopping', async () => {
    const baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-plain-crash-'))
    const templates = await createFakeTemplates(path.join(baseDirectory, 'templates'))
    const script = path.join(baseDirectory, 'server.ts')
    await writeFile(
      script,
      [
        `import { createLocalDriver } from ${JSON.stringify(path.join(import.meta.dirname, 'local-driver.ts'))}`,
        'const driver = createLocalDriver({',
        `  rootDir: ${JSON.stringify(path.join(baseDirectory, 'root'))},`,
        `  templatesDir: ${JSON.stringify(templates)},`,
        `  cacheDir: ${JSON.stringify(testCacheDir)},`,
        "  sandbox: 'off',",
        '})',
        "const box = await driver.provision('vite-react')",
        "console.log('GROUP', box.devServer.processGroupId())",
        'setInterval(() => {}, 1000)',
      ].join('\n'),
    )
    const server = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      const groupId = await printedGroupId(server)
      expect(isProcessGroupAlive(groupId)).toBe(true)
      server.kill('SIGKILL')
      await waitFor(() => !isProcessGroupAlive(groupId), 10_000)
    } finally {
      server.kill('SIGKILL')
      await rm(baseDirectory, { recursive: true, force: true })
    }
  }, 60_000)
})
