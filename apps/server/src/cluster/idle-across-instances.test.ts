// Idle stops across instances (issue 30, docs/decisions/036-idle-stops-from-the-row.md): a box
// used only through B is not stopped by A as idle, since B writes its last use to the box's row;
// with no use anywhere, A stops it. Two instances on one PostgreSQL without SHARED_DIR, so B's
// use stays on B (with SHARED_DIR it would be relayed to A, whose own tracker sees it).
import { randomBytes } from 'node:crypto'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/config.ts'
import { startServer } from '../start-server.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { requestServer, serverEnvironment, signUpOverHttp } from '../testing/server-process.ts'

type Server = Awaited<ReturnType<typeof startServer>>

/** 6 s: a dev server unused that long is stopped; every instance writes its uses each 1.5 s. */
const idleMinutes = 0.1
const idleMs = idleMinutes * 60_000

const cleanups: (() => Promise<void>)[] = []

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

describe.skipIf(testDatabaseKind !== 'postgres')(
  'idle stops across instances',
  { timeout: 300_000 },
  () => {
    let a: Server
    let b: Server
    let token = ''
    let applicationId = ''
    let conversationId = ''
    const base = (server: Server) => `http://127.0.0.1:${server.port}`
    const call = (server: Server, pathname: string, init: RequestInit = {}) =>
      requestServer(base(server), pathname, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      })
    const statusOnA = () => a.devboxes.devServerStatus(applicationId)

    beforeAll(async () => {
      const shared = {
        DEVBOX_IDLE_MINUTES: String(idleMinutes),
        VAULT_KEY: randomBytes(32).toString('base64'),
        AUTH_SECRET: 'idle-test-secret-idle-test-secret-idle-01',
      }
      const environmentA = await serverEnvironment(cleanups, 'sprout-idle-a-', shared)
      const environmentB = {
        ...(await serverEnvironment(cleanups, 'sprout-idle-b-', shared)),
        DATABASE_URL: environmentA.DATABASE_URL ?? '',
      }
      a = await startServer(parseConfig(environmentA), { serveWeb: false })
      b = await startServer(parseConfig(environmentB), { serveWeb: false })
      token = await signUpOverHttp(base(a), { email: 'idle@example.com', name: 'i' })
      const created = await call(a, '/api/applications', {
        method: 'POST',
        body: JSON.stringify({ initial_prompt: 'a box on A', model: 'demo' }),
      })
      applicationId = ((await created.json()) as { id: string }).id
      await until(async () => {
        const response = await call(a, `/api/applications/${applicationId}/editor-ready`)
        return ((await response.json()) as { ready: boolean }).ready
      }, 'the box on A')
      // A conversation for a builder to listen to.
      const sent = await call(a, `/api/demo/applications/${applicationId}/message`, {
        method: 'POST',
        body: JSON.stringify({ message: 'hello', model: 'demo' }),
      })
      conversationId = ((await sent.json()) as { conversation_id: string }).conversation_id
      await until(async () => {
        const rows = await a.database.db
          .select({ status: runs.status })
          .from(runs)
          .where(eq(runs.conversationId, conversationId))
        return rows.every((row) => row.status !== 'running')
      }, 'the run')
    }, 240_000)

    afterAll(async () => {
      await b?.stop()
      await a?.stop()
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    })

    it("keeps A's dev server running while a builder is open only through B, and stops it after", async () => {
      // Woken if it idled during the set-up: A's last use is now, and nothing touches it on A below.
      await until(async () => {
        const response = await call(a, `/api/applications/${applicationId}/editor-ready`)
        return ((await response.json()) as { ready: boolean }).ready
      }, 'the box on A again')
      const builder = new AbortController()
      const listening = await call(
        b,
        `/api/demo/applications/${applicationId}/listen?conversation_id=${conversationId}`,
        { signal: builder.signal },
      )
      expect(listening.status).toBe(200)
      expect(b.devboxes.isOpen(applicationId)).toBe(false)
      // Three idle times: A alone would have stopped it after one.
      const heldSince = Date.now()
      while (Date.now() - heldSince < 3 * idleMs) {
        expect(statusOnA()).toBe('running')
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      const [row] = await a.database.db
        .select({ lastUsedAt: devboxes.lastUsedAt })
        .from(devboxes)
        .where(eq(devboxes.applicationId, applicationId))
      expect(row?.lastUsedAt).toBeInstanceOf(Date)

      // The builder closes: no use anywhere, so A stops it.
      builder.abort()
      await listening.body?.cancel().catch(() => undefined)
      await until(() => statusOnA() === 'stopped', 'A to stop the idle dev server')
    })

    it('keeps it running while it is used through B, one request after another', async () => {
      await until(async () => {
        const response = await call(a, `/api/applications/${applicationId}/editor-ready`)
        return ((await response.json()) as { ready: boolean }).ready
      }, 'the box on A again')
      // What a preview's requests do on the instance that gets them (the HMR socket touches).
      const usedSince = Date.now()
      while (Date.now() - usedSince < 3 * idleMs) {
        b.devboxes.touch(applicationId)
        expect(statusOnA()).toBe('running')
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      await until(() => statusOnA() === 'stopped', 'A to stop it once B stopped using it')
    })
  },
)
