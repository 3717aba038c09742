import { evaluationItems } from '@sprout/db/schema/evaluations.ts'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createLeadership, type Leadership } from '../cluster/leader.ts'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { seedApplication, seedConversations } from '../testing/seed-conversations.ts'
import type { Judge } from './judge.ts'
import { createEvaluationRunner, type EvaluationRunner } from './runner.ts'

// Two instances on one PostgreSQL database, each with its leadership and evaluation runner
// (docs/decisions/032-one-leader.md): a live instance keeps the items it judges while the leader
// changes; a dead one's items are judged by the leader once their heartbeat is stale.

const adminEmail = `instances-admin-${Date.now()}@example.com`

async function waitFor(condition: () => boolean | Promise<boolean>, withinMs = 30_000) {
  const deadline = Date.now() + withinMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Judges that take `holdMs` (forever when undefined) and count calls and overlap. */
function createJudges() {
  let current = 0
  const counts = { calls: 0, peak: 0 }
  const judge =
    (holdMs: number | undefined): Judge =>
    async ({ signal }) => {
      counts.calls++
      current++
      counts.peak = Math.max(counts.peak, current)
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = holdMs === undefined ? undefined : setTimeout(resolve, holdMs)
          signal.addEventListener('abort', () => {
            clearTimeout(timer)
            reject(new Error('aborted'))
          })
        })
        return { summary: 'judged', result: {} }
      } finally {
        current--
      }
    }
  return { counts, judge, current: () => current }
}

describe.skipIf(testDatabaseKind !== 'postgres')(
  'evaluations across instances',
  {
    timeout: 120_000,
  },
  () => {
    let harness: TestApp
    let admin: TestUser
    let conversationIds: string[]
    const stops: (() => Promise<void>)[] = []

    beforeAll(async () => {
      harness = await createTestApp({ ADMIN_EMAILS: adminEmail })
      // This suite's instances lead, not the harness's.
      await harness.created.leadership.stop()
      admin = await harness.signUp(adminEmail)
      const organizationId = await harness.createOrganization(admin, 'Instances Org')
      const applicationId = await seedApplication(harness.database.db, organizationId)
      conversationIds = await seedConversations(harness.database.db, {
        organizationId,
        applicationId,
        count: 6,
      })
    })
    afterEach(async () => {
      for (const stop of stops.splice(0).reverse()) await stop()
    })
    afterAll(async () => {
      await harness?.close()
    })

    /** An instance: its own leader's connection and runner on the shared database. */
    const startInstance = async (judge: Judge, staleAfterMs: number) => {
      const leadership: Leadership = createLeadership(harness.database, { retryMs: 100 })
      const runner: EvaluationRunner = createEvaluationRunner({
        db: harness.database.db,
        providers: harness.config.providers,
        createJudge: () => judge,
        leadership,
        settings: { heartbeatMs: 100, staleAfterMs },
      })
      await leadership.start()
      await runner.startHeartbeat()
      stops.push(async () => {
        await runner.stop()
        await leadership.stop()
      })
      return { leadership, runner }
    }
    const createEvaluation = async (count: number) => {
      const response = await harness.request('/api/admin/conversation-evals', {
        method: 'POST',
        user: admin,
        body: JSON.stringify({
          conversation_ids: conversationIds.slice(0, count),
          concurrent_limit: 2,
        }),
      })
      expect(response.status).toBe(201)
      return ((await response.json()) as { eval_id: string }).eval_id
    }
    const items = (evaluationId: string) =>
      harness.database.db
        .select()
        .from(evaluationItems)
        .where(eq(evaluationItems.evaluationId, evaluationId))
    const evaluationStatus = async (evaluationId: string) => {
      const { rows } = await harness.database.execute(
        'select status from evaluations where id = $1',
        [evaluationId],
      )
      return rows[0]?.status
    }

    it('a new leader leaves the items a live instance judges alone: none is judged twice', async () => {
      const judges = createJudges()
      // Each judgment outlasts the stale limit: only the heartbeat keeps the items A's.
      const first = await startInstance(judges.judge(1_200), 500)
      expect(first.leadership.isLeader()).toBe(true)
      const id = await createEvaluation(6)
      await first.runner.start(id)
      await waitFor(() => judges.current() === 2)

      const second = await startInstance(judges.judge(1_200), 500)
      expect(second.leadership.isLeader()).toBe(false)
      // A steps down while judging; B leads, sweeps at once and runs the evaluation too.
      await first.leadership.stop()
      await waitFor(() => second.leadership.isLeader(), 5_000)
      await waitFor(async () => (await evaluationStatus(id)) === 'completed', 60_000)

      const rows = await items(id)
      expect(rows.map((row) => row.status)).toEqual(Array(6).fill('complete'))
      expect(rows.map((row) => row.attempts)).toEqual(Array(6).fill(1))
      expect(judges.counts.calls).toBe(6)
      // concurrent_limit holds over both instances.
      expect(judges.counts.peak).toBeLessThanOrEqual(2)
    })

    it('never judges more than concurrent_limit at once when both instances run one evaluation', async () => {
      const judges = createJudges()
      const first = await startInstance(judges.judge(150), 30_000)
      const second = await startInstance(judges.judge(150), 30_000)
      const id = await createEvaluation(6)
      await first.runner.start(id)
      // Both run it, each with concurrent_limit workers of its own, claiming at once.
      expect(await second.runner.resume()).toBe(1)
      await Promise.all([first.runner.settled(id), second.runner.settled(id)])
      await waitFor(async () => (await evaluationStatus(id)) === 'completed')
      const rows = await items(id)
      expect(rows.map((row) => row.attempts)).toEqual(Array(6).fill(1))
      expect(judges.counts.calls).toBe(6)
      expect(judges.counts.peak).toBeLessThanOrEqual(2)
    })

    it("judges a dead instance's items on another once their heartbeat is stale", async () => {
      const judges = createJudges()
      const staleAfterMs = 1_500
      const first = await startInstance(judges.judge(undefined), staleAfterMs)
      const second = await startInstance(judges.judge(50), staleAfterMs)
      expect(first.leadership.isLeader()).toBe(true)
      const id = await createEvaluation(4)
      await first.runner.start(id)
      await waitFor(() => judges.current() === 2)
      const held = (await items(id)).filter((row) => row.status === 'in_progress')
      expect(held.map((row) => row.claimedBy)).toEqual([
        first.runner.instanceId,
        first.runner.instanceId,
      ])

      // A dies: no more beats or verdicts, and its connection (with the lock) is gone.
      await first.runner.halt()
      await first.leadership.stop()
      const diedAt = Date.now()
      await waitFor(() => second.leadership.isLeader(), 5_000)
      await waitFor(async () => (await evaluationStatus(id)) === 'completed', 60_000)
      const rows = await items(id)
      expect(rows.map((row) => row.status)).toEqual(Array(4).fill('complete'))
      for (const item of held) {
        const row = rows.find((candidate) => candidate.id === item.id)
        expect(row?.claimedBy).toBe(second.runner.instanceId)
        expect(row?.attempts).toBe(2)
      }
      // Taken back only once stale: at least the stale limit after A's last beat (≤ 100 ms before).
      expect(Date.now() - diedAt).toBeGreaterThanOrEqual(staleAfterMs - 150)
    })
  },
)
