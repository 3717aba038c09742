import { startFakeAnthropic } from '@sprout/agent/testing/fake-anthropic.ts'
import type { FakeTurn } from '@sprout/agent/testing/fake-provider-script.ts'
import type { FakeProviderServer } from '@sprout/agent/testing/fake-provider-server.ts'
import { evaluationItems } from '@sprout/db/schema/evaluations.ts'
import type { EvaluationStatusResponse } from '@sprout/protocol/api/evaluations.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'
import { seedApplication, seedConversations } from '../testing/seed-conversations.ts'
import { createEvaluationRunner } from './runner.ts'

// A model judge through the real Anthropic wire format (a fake server), with the runner's
// concurrency, backoff on 429, a failing item and a restart mid-evaluation.

const adminEmail = `judge-admin-${Date.now()}@example.com`
const answer = (text: string, eventDelayMs = 150): FakeTurn => ({
  blocks: [{ type: 'text', text }],
  eventDelayMs,
})
const retry = { attempts: 4, baseDelayMs: 20, maxDelayMs: 100 }

async function waitFor<Value>(read: () => Promise<Value>, done: (value: Value) => boolean) {
  const deadline = Date.now() + 60_000
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('evaluations with a model judge', { timeout: 120_000 }, () => {
  let fake: FakeProviderServer
  let harness: TestApp
  let admin: TestUser
  let conversationIds: string[]

  beforeAll(async () => {
    fake = await startFakeAnthropic([])
    harness = await createTestApp({
      ADMIN_EMAILS: adminEmail,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.baseUrl,
    })
    admin = await harness.signUp(adminEmail)
    const organizationId = await harness.createOrganization(admin, 'Judged Org')
    const applicationId = await seedApplication(harness.database.db, organizationId)
    conversationIds = await seedConversations(harness.database.db, {
      organizationId,
      applicationId,
      count: 6,
    })
  })
  afterAll(async () => {
    await harness?.close()
    await fake?.close()
  })

  const createEvaluation = async (body: Record<string, unknown>) => {
    const response = await harness.request('/api/admin/conversation-evals', {
      method: 'POST',
      user: admin,
      body: JSON.stringify({ conversation_ids: conversationIds, ...body }),
    })
    expect(response.status).toBe(201)
    return ((await response.json()) as { eval_id: string }).eval_id
  }
  const status = async (id: string) =>
    (await (
      await harness.request(`/api/admin/conversation-evals/${id}/status`, { user: admin })
    ).json()) as EvaluationStatusResponse

  it('judges with the configured model: ≤ concurrent_limit at once, a 429 backs off, a failed item stops nothing', async () => {
    const runner = createEvaluationRunner({
      db: harness.database.db,
      providers: harness.config.providers,
      retry,
    })
    const id = await createEvaluation({
      concurrent_limit: 2,
      prompt_template: 'eval_tool_failures',
    })
    expect((await status(id)).model).toBe('claude-haiku-4-5')
    const before = fake.requests.length
    fake.push(
      answer('## Outcome\nJudged 1'),
      { status: 429 },
      answer('## Outcome\nJudged 2'),
      { status: 400, message: 'prompt is too long' },
      answer('## Outcome\nJudged 3'),
      answer('## Outcome\nJudged 4'),
      answer('## Outcome\nJudged 5'),
    )
    await runner.start(id)
    await runner.settled(id)
    const done = await status(id)
    expect(done.status).toBe('completed')
    expect(done.completed_count).toBe(6)
    expect(done.failed_count).toBe(1)
    expect(done.items.filter((item) => item.status === 'complete')).toHaveLength(5)
    expect(done.items.find((item) => item.status === 'failed')?.error).toContain(
      'prompt is too long',
    )
    expect(fake.requests.length - before).toBe(7)
    expect(fake.peakConcurrency()).toBeLessThanOrEqual(2)
    const rows = await harness.database.db
      .select()
      .from(evaluationItems)
      .where(eq(evaluationItems.evaluationId, id))
    const attempts = rows.map(
      (row) => (row.result as { provider_attempts?: number } | null)?.provider_attempts,
    )
    expect(attempts.filter((count) => count === 2)).toHaveLength(1)
    const body = fake.requests.at(-1)?.body as { model: string; system: unknown; messages: unknown }
    expect(body.model).toBe('claude-haiku-4-5')
    expect(JSON.stringify(body.system)).toContain('List every failing tool call')
    expect(JSON.stringify(body.messages)).toContain('exit code 1')
    expect(JSON.stringify(body.messages)).toContain('TOOL shell_exec (FAILED)')
    expect(JSON.stringify(body.messages)).toContain('tool_errors')
    await runner.stop()
  })

  it('resumes after a restart mid-evaluation and redoes nothing finished', async () => {
    const first = createEvaluationRunner({
      db: harness.database.db,
      providers: harness.config.providers,
      retry,
    })
    const id = await createEvaluation({ concurrent_limit: 2 })
    fake.push(...Array.from({ length: 12 }, (_, index) => answer(`Verdict ${index}`, 400)))
    await first.start(id)
    await waitFor(
      () => status(id),
      (current) => current.items.filter((item) => item.status === 'complete').length >= 2,
    )
    await first.stop()
    const stopped = await status(id)
    const finished = stopped.items.filter((item) => item.status === 'complete')
    expect(stopped.status).toBe('in_progress')
    expect(
      stopped.items.some((item) => item.status === 'pending' || item.status === 'in_progress'),
    ).toBe(true)

    const second = createEvaluationRunner({
      db: harness.database.db,
      providers: harness.config.providers,
      retry,
    })
    expect(await second.resume()).toBe(1)
    await second.settled(id)
    const done = await status(id)
    expect(done.status).toBe('completed')
    expect(done.items.every((item) => item.status === 'complete')).toBe(true)
    for (const item of finished) {
      expect(done.items.find((candidate) => candidate.id === item.id)).toEqual(item)
    }
    const rows = await harness.database.db
      .select()
      .from(evaluationItems)
      .where(eq(evaluationItems.evaluationId, id))
    for (const item of finished) {
      expect(rows.find((row) => row.id === item.id)?.attempts).toBe(1)
    }
    await second.stop()
  })
})
