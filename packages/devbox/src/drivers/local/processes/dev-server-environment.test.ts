import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { requestDevServer } from '../../../dev-server-request.ts'
import { createTestDriver, waitFor } from '../../../testing/devbox-support.ts'
import type { LocalDevbox, LocalDriver } from '../local-driver.ts'

/** The app's vault secrets (docs/product/vault.md "Where values go") in its dev server. */
let rootDir: string
let driver: LocalDriver
let box: LocalDevbox

const route = `import { Hono } from 'hono'

console.log('started with', process.env.APP_TOKEN ?? 'no token')
export const app = new Hono().basePath('/api')
app.get('/health', (c) => c.json({ ok: true }))
app.get('/token-length', (c) => c.json({ length: process.env.APP_TOKEN?.length ?? 0 }))
app.get('/app-token', (c) => {
  console.log('app token', process.env.SPROUT_APP_TOKEN ?? 'unset')
  return c.json({ token: process.env.SPROUT_APP_TOKEN ?? '' })
})
export default app
`

beforeAll(async () => {
  rootDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-dev-env-'))
  driver = createTestDriver({ rootDir })
  box = await driver.provision('fullstack')
  await box.files.write('server/app.ts', route)
}, 120_000)

afterAll(async () => {
  await driver.shutdown()
  await rm(rootDir, { recursive: true, force: true })
})

const tokenLength = async () => {
  const answer = await requestDevServer(box.devServer.target(), '/api/token-length').catch(
    () => undefined,
  )
  return answer?.status === 200 ? (JSON.parse(answer.body) as { length: number }).length : -1
}

test('setEnvironment restarts the dev server with the values, on the same port, and its output keeps them redacted', async () => {
  await waitFor(async () => (await tokenLength()) === 0, 30_000)
  const target = JSON.stringify(box.devServer.target())
  await box.devServer.setEnvironment?.({ APP_TOKEN: 'tok-1234567890' })
  expect(box.devServer.status()).toBe('running')
  await waitFor(async () => (await tokenLength()) === 14, 30_000)
  expect(JSON.stringify(box.devServer.target())).toBe(target)
  expect(box.devServer.restarts()).toBe(0)
  await waitFor(
    async () => box.devServer.logs().includes('started with [secret APP_TOKEN]'),
    30_000,
  )
  expect(box.devServer.logs()).not.toContain('tok-1234567890')

  // The same values change nothing; a stopped server gets new ones at its next start.
  const pid = box.devServer.processGroupId()
  await box.devServer.setEnvironment?.({ APP_TOKEN: 'tok-1234567890' })
  expect(box.devServer.processGroupId()).toBe(pid)
  await box.devServer.stop()
  await box.devServer.setEnvironment?.({ APP_TOKEN: 'tok-12' })
  expect(box.devServer.status()).toBe('stopped')
  await box.devServer.start()
  await waitFor(async () => (await tokenLength()) === 6, 30_000)
}, 120_000)

test("Sprout's own variables reach a running dev server without a restart, redacted in its output", async () => {
  const appToken = async () => {
    const answer = await requestDevServer(box.devServer.target(), '/api/app-token').catch(
      () => undefined,
    )
    return answer?.status === 200 ? (JSON.parse(answer.body) as { token: string }).token : undefined
  }
  await waitFor(async () => (await appToken()) === '', 30_000)
  const pid = box.devServer.processGroupId()
  // A box claimed from the pool gets its app's token: read from SPROUT_ENV_FILE, no restart.
  await box.devServer.setEnvironment?.({ APP_TOKEN: 'tok-12', SPROUT_APP_TOKEN: 'app-tok-98765' })
  expect(box.devServer.status()).toBe('running')
  expect(await appToken()).toBe('app-tok-98765')
  expect(box.devServer.processGroupId()).toBe(pid)
  await waitFor(async () => box.devServer.logs().includes('app token [secret SPROUT_APP_TOKEN]'))
  expect(box.devServer.logs()).not.toContain('app-tok-98765')
  // Unset again, still without a restart; a vault value's change restarts it.
  await box.devServer.setEnvironment?.({ APP_TOKEN: 'tok-12' })
  expect(await appToken()).toBe('')
  expect(box.devServer.processGroupId()).toBe(pid)
  await box.devServer.setEnvironment?.({ APP_TOKEN: 'tok-1234567890' })
  expect(box.devServer.processGroupId()).not.toBe(pid)
  await waitFor(async () => (await tokenLength()) === 14, 30_000)
}, 120_000)

test('a box reopened after a restart starts its dev server once, with the environment given', async () => {
  await driver.shutdown()
  const reopened = createTestDriver({ rootDir })
  try {
    box = await reopened.open(box.id, 'fullstack', { env: { APP_TOKEN: 'reopened-token' } })
    expect(box.devServer.status()).toBe('running')
    await waitFor(async () => (await tokenLength()) === 14, 30_000)
    expect(box.devServer.logs()).toContain('started with [secret APP_TOKEN]')
    expect(box.devServer.logs()).not.toContain('no token')
  } finally {
    await reopened.shutdown()
  }
}, 120_000)
