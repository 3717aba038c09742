import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { DevboxDriver } from './devbox-driver.ts'
import type { LocalDriver } from './drivers/local/local-driver.ts'
import { silentLogger } from './logger.ts'
import { createDevboxPool, type DevboxPool } from './pool.ts'
import { createJsonFilePoolPersistence } from './pool-persistence.ts'
import {
  createFakeTemplates,
  createTestDriver,
  devServerText,
  waitFor,
} from './testing/devbox-support.ts'

let baseDirectory: string
let templatesDir: string
let rootDir: string
const drivers: LocalDriver[] = []
const pools: DevboxPool[] = []

beforeAll(async () => {
  baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-pool-'))
  templatesDir = await createFakeTemplates(path.join(baseDirectory, 'templates'))
  rootDir = path.join(baseDirectory, 'root')
})

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close()
  for (const driver of drivers.splice(0)) await driver.shutdown()
})

afterAll(async () => {
  await rm(baseDirectory, { recursive: true, force: true })
})

function createDriver(): LocalDriver {
  const driver = createTestDriver({ rootDir, templatesDir })
  drivers.push(driver)
  return driver
}

function createPool(driver: DevboxDriver, target: number, stateFile = 'pool.json'): DevboxPool {
  const pool = createDevboxPool({
    driver,
    targets: { 'vite-react': target },
    logger: silentLogger,
    persistence: createJsonFilePoolPersistence(path.join(rootDir, stateFile)),
    retry: { baseDelayMs: 50, maxDelayMs: 200, maxConsecutiveFailures: 3 },
  })
  pools.push(pool)
  return pool
}

const readyCount = (pool: DevboxPool) => pool.stats().packs['vite-react']?.ready ?? 0

describe('dev box pool', () => {
  it('keeps the target of ready boxes, hands one out at once and refills', async () => {
    const driver = createDriver()
    const pool = createPool(driver, 2, 'refill.json')
    expect(await pool.claim('vite-react')).toBeUndefined()
    await pool.start()
    expect(pool.stats().global.provisioning).toBe(2)
    await waitFor(() => readyCount(pool) === 2, 30_000)
    expect(pool.stats()).toEqual({
      global: { provisioning: 0, failed: 0 },
      packs: { 'vite-react': { ready: 2, target: 2 } },
    })

    const startedAt = Date.now()
    const box = await pool.claim('vite-react')
    expect(Date.now() - startedAt).toBeLessThan(200)
    expect(box?.devServer.status()).toBe('running')
    expect(await devServerText(box?.devServer.target())).toBe('fake dev server')
    expect(readyCount(pool)).toBe(1)

    await waitFor(() => readyCount(pool) === 2, 30_000)
    await driver.destroy(box?.id ?? '')
  }, 60_000)

  it('waits refillDelayMs after a claim before provisioning the replacement', async () => {
    const driver = createDriver()
    const pool = createDevboxPool({
      driver,
      targets: { 'vite-react': 1 },
      logger: silentLogger,
      refillDelayMs: 400,
    })
    pools.push(pool)
    await pool.start()
    await waitFor(() => readyCount(pool) === 1, 30_000)
    const claimedAt = Date.now()
    const box = await pool.claim('vite-react')
    expect(pool.stats().global.provisioning).toBe(0)
    await waitFor(() => pool.stats().global.provisioning === 1 || readyCount(pool) === 1, 30_000)
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(350)
    await waitFor(() => readyCount(pool) === 1, 30_000)
    await driver.destroy(box?.id ?? '')
  }, 60_000)

  it('cycles: destroys the ready boxes and provisions new ones', async () => {
    const driver = createDriver()
    const pool = createPool(driver, 2, 'cycle.json')
    await pool.start()
    // The state file is written after the in-memory count changes, so wait for both.
    const recordedReady = async () =>
      readyCount(pool) === 2 && (await readyIds('cycle.json')).length === 2
    await waitFor(recordedReady, 30_000)
    const before = await readyIds('cycle.json')

    await pool.cycle('vite-react')
    for (const id of before) expect(existsSync(path.join(rootDir, 'workspaces', id))).toBe(false)
    await waitFor(recordedReady, 30_000)
    const after = await readyIds('cycle.json')
    expect(after.some((id) => before.includes(id))).toBe(false)
  }, 60_000)

  it('reuses recorded ready boxes after a restart and destroys half-provisioned ones', async () => {
    const firstDriver = createDriver()
    const firstPool = createPool(firstDriver, 1, 'restart.json')
    await firstPool.start()
    await waitFor(() => readyCount(firstPool) === 1, 30_000)
    await firstPool.close()
    await firstDriver.shutdown()

    // A box whose provisioning was cut short by the restart.
    const orphan = path.join(rootDir, 'workspaces', 'orphan-box')
    await mkdir(orphan, { recursive: true })
    const stateFile = path.join(rootDir, 'restart.json')
    const recorded = JSON.parse(await readFile(stateFile, 'utf8'))
    recorded.push({ id: 'orphan-box', packType: 'vite-react', state: 'provisioning' })
    await writeFile(stateFile, JSON.stringify(recorded))

    const driver = createDriver()
    const pool = createPool(driver, 1, 'restart.json')
    await pool.start()
    expect(pool.stats()).toEqual({
      global: { provisioning: 0, failed: 0 },
      packs: { 'vite-react': { ready: 1, target: 1 } },
    })
    expect(existsSync(orphan)).toBe(false)
    const box = await pool.claim('vite-react')
    expect(box?.id).toBe(recorded[0].id)
    expect(box?.devServer.status()).toBe('running')
    await driver.destroy(box?.id ?? '')
  }, 60_000)

  it('destroys at start the ready boxes made from another starter, and hands out a new one', async () => {
    const withTemplate = (driver: DevboxDriver, version: string) => {
      const pool = createDevboxPool({
        driver,
        targets: { 'vite-react': 1 },
        logger: silentLogger,
        persistence: createJsonFilePoolPersistence(path.join(rootDir, 'upgrade.json')),
        templateOf: () => version,
      })
      pools.push(pool)
      return pool
    }
    const firstDriver = createDriver()
    const before = withTemplate(firstDriver, 'starter-1')
    await before.start()
    await waitFor(() => readyCount(before) === 1, 30_000)
    // A box is ready in memory a moment before its record says so (pool-refill.ts).
    const records = async () =>
      JSON.parse(await readFile(path.join(rootDir, 'upgrade.json'), 'utf8')) as {
        id: string
        state: string
      }[]
    await waitFor(async () => (await records())[0]?.state === 'ready', 30_000)
    const old = (await records())[0] ?? { id: '', state: '' }
    expect(old).toMatchObject({ state: 'ready', template: 'starter-1' })
    await before.close()
    await firstDriver.shutdown()

    // Sprout upgraded: the starter is another.
    const driver = createDriver()
    const after = withTemplate(driver, 'starter-2')
    await after.start()
    expect(existsSync(path.join(rootDir, 'workspaces', old.id))).toBe(false)
    await waitFor(() => readyCount(after) === 1, 30_000)
    const box = await after.claim('vite-react')
    expect(box?.id).not.toBe(old.id)
    await driver.destroy(box?.id ?? '')
  }, 90_000)

  it('counts failed provisions, retries with backoff and never hands a failed box out', async () => {
    const driver = createDriver()
    let failuresLeft = 2
    const flaky: DevboxDriver = {
      ...driver,
      provision: async (packType, options) => {
        if (failuresLeft-- > 0) throw new Error('disk full')
        return driver.provision(packType, options)
      },
    }
    const pool = createPool(flaky, 1, 'flaky.json')
    await pool.start()
    await waitFor(() => readyCount(pool) === 1, 30_000)
    expect(pool.stats().global.failed).toBe(2)
    const box = await pool.claim('vite-react')
    expect(await devServerText(box?.devServer.target())).toBe('fake dev server')
    await driver.destroy(box?.id ?? '')
  }, 60_000)

  it('stops retrying after repeated failures until the pack is cycled', async () => {
    const driver = createDriver()
    const broken: DevboxDriver = {
      ...driver,
      provision: async () => {
        throw new Error('template is broken')
      },
    }
    const pool = createPool(broken, 1, 'broken.json')
    await pool.start()
    await waitFor(() => pool.stats().global.failed === 3)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(pool.stats().global).toEqual({ provisioning: 0, failed: 3 })
    expect(await pool.claim('vite-react')).toBeUndefined()
    await pool.cycle('vite-react')
    await waitFor(() => pool.stats().global.failed === 6)
  })

  it('stops a warm-up under way when it closes, instead of waiting out its requests', async () => {
    // A dev server that takes the warm-up's request and never answers (a stopping server must not
    // wait the warm-up's 30 s per request).
    const asked: http.ServerResponse[] = []
    const silent = http.createServer((_request, response) => asked.push(response))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    const driver = createDriver()
    const hanging: DevboxDriver = {
      ...driver,
      provision: async (packType, options) => {
        const box = await driver.provision(packType, options)
        return {
          ...box,
          devServer: { ...box.devServer, target: () => ({ host: '127.0.0.1', port }) },
        }
      },
    }
    const pool = createPool(hanging, 1, 'warming.json')
    try {
      await pool.start()
      await waitFor(() => asked.length > 0, 30_000)
      const closing = pool.close()
      // Closed long before the warm-up's own 30 s limit: the abort ended the request.
      const outcome = await Promise.race([
        closing.then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 15_000).unref()),
      ])
      expect(outcome).toBe('closed')
    } finally {
      for (const response of asked) response.destroy()
      silent.close()
    }
  })
})

async function readyIds(stateFile: string): Promise<string[]> {
  const records = await createJsonFilePoolPersistence(path.join(rootDir, stateFile)).load()
  return records.filter((record) => record.state === 'ready').map((record) => record.id)
}
