import { organization, user } from '@sprout/db/schema/auth.ts'
import type {
  AdminConversationList,
  EvaluationStatusResponse,
  PromptTemplate,
} from '@sprout/protocol/api/evaluations.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'
import { seedApplication, seedConversations } from '../testing/seed-conversations.ts'

const adminEmail = `evals-admin-${Date.now()}@example.com`

describe('admin conversations and offline evaluations', { timeout: 120_000 }, () => {
  let harness: TestApp
  let admin: TestUser
  let member: TestUser
  let organizationId: string
  let applicationId: string
  let seeded: string[]

  beforeAll(async () => {
    harness = await createTestApp({ ADMIN_EMAILS: adminEmail })
    admin = await harness.signUp(adminEmail)
    member = await harness.signUp()
    organizationId = await harness.createOrganization(admin, 'Evals Org')
    applicationId = await seedApplication(harness.database.db, organizationId)
    seeded = await seedConversations(harness.database.db, {
      organizationId,
      applicationId,
      count: 250,
    })
  })
  afterAll(() => harness?.close())

  const get = (path: string, user = admin) => harness.request(path, { user })
  const post = (path: string, body: unknown, user = admin) =>
    harness.request(path, { method: 'POST', user, body: JSON.stringify(body) })

  it('refuses everybody but platform admins', async () => {
    for (const path of [
      '/api/admin/conversations',
      '/api/admin/conversation-evals/prompts',
      '/api/admin/conversation-evals/x/status',
    ]) {
      expect((await get(path, member)).status).toBe(403)
    }
    expect((await post('/api/admin/conversation-evals', {}, member)).status).toBe(403)
  })

  it('pages every conversation newest first without skipping or repeating rows added meanwhile', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    let first = true
    do {
      const response = await get(
        `/api/admin/conversations?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(response.status).toBe(200)
      const page = (await response.json()) as AdminConversationList
      if (first) {
        expect(page.conversations[0]).toMatchObject({
          id: seeded.at(-1),
          title: 'Conversation 249',
          org: { slug: expect.any(String), name: 'Evals Org' },
          app: { name: 'Recipe box' },
          message_count: 2,
        })
        // New conversations arrive between pages: they are newer and never shift the next pages.
        await seedConversations(harness.database.db, {
          organizationId,
          applicationId,
          count: 30,
          withEvents: false,
        })
        first = false
      }
      seen.push(...page.conversations.map((conversation) => conversation.id))
      cursor = page.next_cursor
    } while (cursor)
    expect(seen.length).toBe(250)
    expect(new Set(seen).size).toBe(250)
    expect(seen).toEqual([...seeded].reverse())
    expect((await get('/api/admin/conversations?cursor=nonsense')).status).toBe(400)
  })

  it('lists the prompt templates, the default first', async () => {
    const templates = (await (
      await get('/api/admin/conversation-evals/prompts')
    ).json()) as PromptTemplate[]
    expect(templates[0]?.name).toBe('eval_conversation_challenges')
    expect(templates.length).toBeGreaterThanOrEqual(3)
  })

  it('validates the configuration', async () => {
    const cases: [unknown, string][] = [
      [{ conversation_ids: [] }, 'Select at least one conversation'],
      [{ conversation_ids: [seeded[0]], concurrent_limit: 11 }, 'from 1 to 10'],
      [{ conversation_ids: [seeded[0]], custom_prompt: '  ' }, 'A custom prompt is required'],
      [{ conversation_ids: [seeded[0]], prompt_template: 'nope' }, 'Unknown prompt template'],
      [{ conversation_ids: [seeded[0], 'missing-id'] }, 'Unknown conversations: missing-id'],
      [{ conversation_ids: [seeded[0]], model: 'claude-haiku-4-5' }, 'ANTHROPIC_API_KEY'],
    ]
    for (const [body, text] of cases) {
      const response = await post('/api/admin/conversation-evals', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(((await response.json()) as { error: string }).error).toContain(text)
    }
  })

  it('evaluates offline without a provider: pending → in_progress → completed, with the figures', async () => {
    const created = await post('/api/admin/conversation-evals', {
      conversation_ids: seeded.slice(0, 5),
      concurrent_limit: 2,
    })
    expect(created.status).toBe(201)
    const { eval_id: id } = (await created.json()) as { eval_id: string }
    const pending = (await (
      await get(`/api/admin/conversation-evals/${id}/status`)
    ).json()) as EvaluationStatusResponse
    expect(pending).toMatchObject({
      status: 'pending',
      model: 'demo',
      prompt_template: 'eval_conversation_challenges',
      concurrent_limit: 2,
      conversation_count: 5,
      completed_count: 0,
    })
    expect((await post(`/api/admin/conversation-evals/${id}/start`, {})).status).toBe(200)
    await harness.created.evaluations.settled(id)
    const done = (await (
      await get(`/api/admin/conversation-evals/${id}/status`)
    ).json()) as EvaluationStatusResponse
    expect(done.status).toBe('completed')
    expect(done.completed_count).toBe(5)
    for (const item of done.items) {
      expect(item.status).toBe('complete')
      expect(item.started_at).not.toBeNull()
      expect(item.processing_time_ms).toBeGreaterThanOrEqual(0)
      expect(item.app_slug).toMatch(/^app-/)
    }
    const summary = done.items[0]?.summary ?? ''
    expect(summary).toContain('Offline analysis (not AI)')
    expect(summary).toContain('1 failing tool call(s) of 2')
    expect(summary).toContain('1 interrupt(s)')
    expect(summary).toContain('1 retry(ies)')
    expect(summary).toContain('1 staged message(s) handed back')
    expect(summary).toContain('1 compaction(s)')
    expect(summary).toContain('1 user message(s) reading like a correction')
    expect(summary).toContain('FAIL src/App.test.tsx')
    const raw = await get(`/api/admin/conversation-evals/${id}/results/raw`)
    expect(raw.headers.get('content-type')).toContain('text/plain')
    const text = await raw.text()
    expect(text).toContain('Conversation 0')
    expect(text).toContain('Template: eval_conversation_challenges')
    expect((await post(`/api/admin/conversation-evals/${id}/start`, {})).status).toBe(409)
  })

  // Issue 20: personal organizations are all named 'Personal' and showed as `personal-<id>`.
  it("names organizations, a personal one by its owner's name, in the list, the items and the raw results", async () => {
    const { db } = harness.database
    await db.update(user).set({ name: 'Ada Admin' }).where(eq(user.id, admin.id))
    const [personal] = await db
      .select({ id: organization.id, slug: organization.slug })
      .from(organization)
      .where(eq(organization.slug, `personal-${admin.id}`))
    if (!personal) throw new Error('the admin has no personal organization')
    const personalApplication = await seedApplication(db, personal.id, 'Ada app')
    const [own = ''] = await seedConversations(db, {
      organizationId: personal.id,
      applicationId: personalApplication,
      count: 1,
    })
    const listed = (await (
      await get('/api/admin/conversations?limit=100')
    ).json()) as AdminConversationList
    expect(listed.conversations.find((conversation) => conversation.id === own)?.org).toEqual({
      slug: personal.slug,
      name: 'Ada Admin (personal)',
    })
    expect(
      listed.conversations.find((conversation) => conversation.id === seeded.at(-1))?.org,
    ).toEqual({ slug: expect.any(String), name: 'Evals Org' })

    const created = await post('/api/admin/conversation-evals', {
      conversation_ids: [own, seeded[0]],
    })
    const { eval_id: id } = (await created.json()) as { eval_id: string }
    expect((await post(`/api/admin/conversation-evals/${id}/start`, {})).status).toBe(200)
    await harness.created.evaluations.settled(id)
    const done = (await (
      await get(`/api/admin/conversation-evals/${id}/status`)
    ).json()) as EvaluationStatusResponse
    expect(done.items.map((item) => item.org_name)).toEqual(['Ada Admin (personal)', 'Evals Org'])
    const raw = await (await get(`/api/admin/conversation-evals/${id}/results/raw`)).text()
    expect(raw).toContain('Organization: Ada Admin (personal)  App: ')
    expect(raw).not.toContain(personal.slug)
  })
})
