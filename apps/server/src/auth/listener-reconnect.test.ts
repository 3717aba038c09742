import { session } from '@sprout/db/schema/auth.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../app.ts'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { openOtherInstanceDatabase } from '../testing/other-instance-database.ts'

/** How long the other instance's listener stays away after its connection is cut. */
const listenerRetryMs = 2000

const waitFor = async (condition: () => Promise<boolean>, withinMs: number) => {
  const deadline = Date.now() + withinMs
  while (!(await condition())) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return true
}

/**
 * Two instances on one PostgreSQL database, each with its own LISTEN connection. A session
 * revoked through A while B's listener is cut (its NOTIFY lost) is refused by B once the
 * listener is back, and B's streams of that session end (docs/architecture/scale-out.md).
 */
describe.skipIf(testDatabaseKind !== 'postgres')(
  'a session revoked while the listener reconnects',
  {
    timeout: 60_000,
  },
  () => {
    let first: TestApp
    let other: Awaited<ReturnType<typeof openOtherInstanceDatabase>>
    let second: ReturnType<typeof createApp>
    beforeAll(async () => {
      first = await createTestApp()
      other = await openOtherInstanceDatabase(first.database, { listenerRetryMs })
      second = createApp({
        config: first.config,
        database: other.database,
        authSecret: 'test-secret-test-secret-test-secret-0123',
        devboxes: first.devboxes,
        vaultKeyring: first.created.vault.keyring,
      })
      await second.authCache.start()
      await second.userStreams.start()
    })
    afterAll(async () => {
      await second?.userStreams.stop()
      await second?.authCache.stop()
      await other?.database.close()
      await first?.close()
    })

    const statusOnSecond = async (user: TestUser) =>
      (
        await second.app.request('/api/admin/status', {
          headers: { authorization: `Bearer ${user.token}` },
        })
      ).status

    it('refuses the session on B within 5 s and ends its stream there', async () => {
      const user = await first.signUp()
      const [row] = await first.database.db
        .select({ id: session.id })
        .from(session)
        .where(eq(session.userId, user.id))
      if (!row) throw new Error('no session')
      // B caches the session and holds a stream of it.
      expect(await statusOnSecond(user)).toBe(200)
      let streamEnded = false
      second.userStreams.hold({ userId: user.id, sessionId: row.id }, () => {
        streamEnded = true
      })

      const cutPid = await other.cutListener()
      const signOut = await first.request('/api/auth/sign-out', { method: 'POST', user })
      expect(signOut.status).toBe(200)
      // The revocation's NOTIFY went out while B listened on nothing: it is lost for B.
      expect(await other.listenerPids()).toEqual([])

      const startedAt = Date.now()
      expect(await waitFor(async () => (await statusOnSecond(user)) === 401, 5000)).toBe(true)
      expect(await waitFor(async () => streamEnded, 5000 - (Date.now() - startedAt))).toBe(true)
      const [pid] = await other.listenerPids()
      expect(pid).toBeDefined()
      expect(pid).not.toBe(cutPid)
    })

    it('keeps a live session and its stream across the reconnect', async () => {
      const user = await first.signUp()
      const [row] = await first.database.db
        .select({ id: session.id })
        .from(session)
        .where(eq(session.userId, user.id))
      if (!row) throw new Error('no session')
      let streamEnded = false
      const release = second.userStreams.hold({ userId: user.id, sessionId: row.id }, () => {
        streamEnded = true
      })
      const cutPid = await other.cutListener()
      expect(
        await waitFor(async () => {
          const pids = await other.listenerPids()
          return pids.length === 1 && pids[0] !== cutPid
        }, 10_000),
      ).toBe(true)
      expect(await statusOnSecond(user)).toBe(200)
      expect(streamEnded).toBe(false)
      expect(second.userStreams.openCount(user.id)).toBe(1)
      release()
    })
  },
)
