// Conversation evaluations (docs/product/admin.md "Conversation Evaluations tab"), in process on
// PGlite through the real routes: 100 conversations evaluated offline (wall time, peak memory),
// and the admin's conversation list over 10,000 conversations (every page, p50/p95).

import {
  createTestApp,
  type TestApp,
  type TestUser,
} from '../apps/server/src/testing/app-harness.ts'
import {
  seedApplication,
  seedConversations,
} from '../apps/server/src/testing/seed-conversations.ts'
import { milliseconds, quantile } from './lib/stats.ts'

const mebibytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`

async function evaluateOffline(
  harness: TestApp,
  admin: TestUser,
  conversationIds: string[],
  concurrentLimit: number,
) {
  const created = await harness.request('/api/admin/conversation-evals', {
    method: 'POST',
    user: admin,
    body: JSON.stringify({ conversation_ids: conversationIds, concurrent_limit: concurrentLimit }),
  })
  const { eval_id: id } = (await created.json()) as { eval_id: string }
  const before = process.memoryUsage()
  let peak = before.rss
  let peakHeap = before.heapUsed
  const sampler = setInterval(() => {
    const now = process.memoryUsage()
    peak = Math.max(peak, now.rss)
    peakHeap = Math.max(peakHeap, now.heapUsed)
  }, 10)
  const started = performance.now()
  await harness.request(`/api/admin/conversation-evals/${id}/start`, {
    method: 'POST',
    user: admin,
  })
  await harness.created.evaluations.settled(id)
  const wall = performance.now() - started
  clearInterval(sampler)
  const status = (await (
    await harness.request(`/api/admin/conversation-evals/${id}/status`, { user: admin })
  ).json()) as { status: string; completed_count: number }
  if (status.status !== 'completed' || status.completed_count !== conversationIds.length) {
    throw new Error(`evaluation ended ${status.status} with ${status.completed_count}`)
  }
  return { wall, before: before.rss, peak, heapBefore: before.heapUsed, peakHeap }
}

async function pageThrough(harness: TestApp, admin: TestUser) {
  const times: number[] = []
  let cursor: string | null = null
  let rows = 0
  do {
    const started = performance.now()
    const response = await harness.request(
      `/api/admin/conversations?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      { user: admin },
    )
    const page = (await response.json()) as { conversations: unknown[]; next_cursor: string | null }
    times.push(performance.now() - started)
    rows += page.conversations.length
    cursor = page.next_cursor
  } while (cursor)
  return { times, rows }
}

export async function benchEvaluations(): Promise<Record<string, string>> {
  const adminEmail = 'bench-evals@example.com'
  const harness = await createTestApp({ ADMIN_EMAILS: adminEmail })
  try {
    const admin = await harness.signUp(adminEmail)
    const organizationId = await harness.createOrganization(admin, 'Bench')
    const applicationId = await seedApplication(harness.database.db, organizationId)
    const db = harness.database.db
    const evaluated = await seedConversations(db, { organizationId, applicationId, count: 100 })
    const figures: Record<string, string> = {}
    for (const limit of [3, 10]) {
      const run = await evaluateOffline(harness, admin, evaluated, limit)
      figures[`100 conversations offline, concurrency ${limit}: wall`] = milliseconds(run.wall)
      figures[`100 conversations offline, concurrency ${limit}: RSS before → peak`] =
        `${mebibytes(run.before)} → ${mebibytes(run.peak)}`
      figures[`100 conversations offline, concurrency ${limit}: JS heap before → peak`] =
        `${mebibytes(run.heapBefore)} → ${mebibytes(run.peakHeap)}`
    }
    await seedConversations(db, { organizationId, applicationId, count: 9_900, withEvents: false })
    for (const round of ['cold', 'warm']) {
      const { times, rows } = await pageThrough(harness, admin)
      figures[
        `admin list, ${rows} conversations, ${times.length} pages (${round}): p50 / p95 / max`
      ] =
        `${milliseconds(quantile(times, 0.5))} / ${milliseconds(quantile(times, 0.95))} / ${milliseconds(Math.max(...times))}`
    }
    return figures
  } finally {
    await harness.close()
  }
}
