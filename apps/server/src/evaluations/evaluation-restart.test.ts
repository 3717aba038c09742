import { startFakeAnthropic } from '@sprout/agent/testing/fake-anthropic.ts'
import { evaluationItems } from '@sprout/db/schema/evaluations.ts'
import type { EvaluationStatusResponse } from '@sprout/protocol/api/evaluations.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/config.ts'
import { startServer } from '../start-server.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { seedApplication, seedConversations } from '../testing/seed-conversations.ts'
import { requestServer, serverEnvironment, signUpOverHttp } from '../testing/server-process.ts'

// A server stopped mid-evaluation and started again on the same data goes on where it was
// (docs/decisions/020-evaluations.md "Restart"), with a model judge on a fake Anthropic server.

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function until<Value>(read: () => Promise<Value>, done: (value: Value) => boolean) {
  const deadline = Date.now() + 60_000
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe(`evaluations across a server restart (${testDatabaseKind})`, { timeout: 120_000 }, () => {
  it('resumes the evaluation at the next start and redoes nothing finished', async () => {
    const fake = await startFakeAnthropic(
      Array.from({ length: 20 }, (_, index) => ({
        blocks: [{ type: 'text' as const, text: `## Outcome\nVerdict ${index}` }],
        eventDelayMs: 400,
      })),
    )
    cleanups.push(fake.close)
    const environment = await serverEnvironment(cleanups, 'sprout-evals-restart-', {
      ADMIN_EMAILS: 'restart-admin@example.com',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.baseUrl,
    })
    const config = parseConfig(environment)

    const first = await startServer(config, { serveWeb: false })
    let base = `http://127.0.0.1:${first.port}`
    let token = ''
    const call = (pathname: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      if (token) headers.set('authorization', `Bearer ${token}`)
      return requestServer(base, pathname, { ...init, headers })
    }
    token = await signUpOverHttp(base, { email: 'restart-admin@example.com', name: 'a' })
    const organization = await call('/api/auth/organization/create', {
      method: 'POST',
      body: JSON.stringify({ name: 'Restart', slug: 'restart-evals' }),
    })
    const organizationId = ((await organization.json()) as { id: string }).id
    const db = first.database.db
    const applicationId = await seedApplication(db, organizationId)
    const conversationIds = await seedConversations(db, { organizationId, applicationId, count: 6 })
    const created = await call('/api/admin/conversation-evals', {
      method: 'POST',
      body: JSON.stringify({ conversation_ids: conversationIds, concurrent_limit: 2 }),
    })
    const { eval_id: id } = (await created.json()) as { eval_id: string }
    expect(
      (await call(`/api/admin/conversation-evals/${id}/start`, { method: 'POST' })).status,
    ).toBe(200)
    const status = async () =>
      (await (
        await call(`/api/admin/conversation-evals/${id}/status`)
      ).json()) as EvaluationStatusResponse
    const before = await until(
      status,
      (current) => current.items.filter((item) => item.status === 'complete').length >= 2,
    )
    expect(before.items.some((item) => item.status !== 'complete')).toBe(true)
    await first.stop()

    const second = await startServer(config, { serveWeb: false })
    cleanups.push(second.stop)
    base = `http://127.0.0.1:${second.port}`
    const done = await until(status, (current) => current.status !== 'in_progress')
    expect(done.status).toBe('completed')
    expect(done.completed_count).toBe(6)
    expect(done.items.every((item) => item.status === 'complete')).toBe(true)
    expect(done.model).toBe('claude-haiku-4-5')
    const finishedBefore = before.items.filter((item) => item.status === 'complete')
    const rows = await second.database.db
      .select()
      .from(evaluationItems)
      .where(eq(evaluationItems.evaluationId, id))
    for (const item of finishedBefore) {
      expect(done.items.find((candidate) => candidate.id === item.id)?.summary).toBe(item.summary)
      expect(rows.find((row) => row.id === item.id)?.attempts).toBe(1)
    }
  })
})
