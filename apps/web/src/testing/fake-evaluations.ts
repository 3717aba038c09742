/** TEST HELPER: the admin conversation and evaluation calls behind a stubbed fetch, in memory. */
import type {
  AdminConversation,
  EvaluationItem,
  EvaluationStatusResponse,
} from '@sprout/protocol/api/evaluations.ts'
import { vi } from 'vitest'
import { testModel } from './test-model.ts'

export function adminConversation(index: number): AdminConversation {
  return {
    id: `conversation-${index}`,
    title: `Conversation ${index}`,
    org: { slug: 'acme', name: 'Acme Corp' },
    app: index % 2 ? { name: 'Counter' } : null,
    message_count: index + 1,
    created_at: new Date(Date.UTC(2026, 10, 20, 12, index)).toISOString(),
  }
}

const demoModel = testModel('demo', {
  name: 'Demo',
  provider: 'demo',
  description: 'Offline',
  performance: 1,
  speed: 5,
  reasoning: 1,
})

type Call = { method: string; path: string; url: string; body?: unknown }

/**
 * `pages` answer GET /api/admin/conversations one after the other (the cursor is the page index).
 * The evaluation's items move on only when the test calls `advance`.
 */
export function fakeEvaluations(
  pages: AdminConversation[][],
  evaluation?: EvaluationStatusResponse,
) {
  const calls: Call[] = []
  let current = evaluation
  let startRefusal: string | undefined
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    const parsed = new URL(url, 'http://localhost')
    calls.push({ method, path: parsed.pathname, url, body })
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })
    const path = parsed.pathname
    if (path === '/api/models') return json(200, [demoModel])
    if (path === '/api/admin/conversations') {
      const index = Number(parsed.searchParams.get('cursor') ?? 0)
      const next = index + 1 < pages.length ? String(index + 1) : null
      return json(200, { conversations: pages[index] ?? [], next_cursor: next })
    }
    if (path === '/api/admin/conversation-evals/prompts') {
      return json(200, [
        { name: 'eval_conversation_challenges', description: 'Where the user met friction' },
        { name: 'eval_outcome', description: 'Whether the user got what they asked for' },
      ])
    }
    if (path === '/api/admin/conversation-evals' && method === 'POST') {
      current = evaluationStatus('eval-1', body.conversation_ids, body.prompt_template ?? null)
      return json(201, { eval_id: current.id })
    }
    if (!current) return json(404, { error: 'Not found' })
    if (path.endsWith('/start')) {
      if (startRefusal) return json(503, { error: startRefusal })
      current = { ...current, status: 'in_progress' }
      return json(200, current)
    }
    if (path.endsWith('/status')) return json(200, current)
    return json(404, { error: 'Not found' })
  })
  return {
    calls,
    callsTo: (suffix: string, method = 'GET') =>
      calls.filter((call) => call.method === method && call.path.endsWith(suffix)),
    refuseStart: (reason: string | undefined) => {
      startRefusal = reason
    },
    /** Runs the next pending item, or completes the running one (and the evaluation at the end). */
    advance: () => {
      if (!current) throw new Error('No evaluation yet')
      const items = current.items.map((item) => ({ ...item }))
      const running = items.find((item) => item.status === 'in_progress')
      if (running) {
        running.status = 'complete'
        running.processing_time_ms = 1_500
        running.summary = `## ${running.conversation_title ?? 'Untitled'}\n**Outcome**: built = 1+1`
      } else {
        const next = items.find((item) => item.status === 'pending')
        if (next) {
          next.status = 'in_progress'
          next.started_at = new Date(Date.now() - 4_000).toISOString()
        }
      }
      const completed = items.filter((item) => item.status === 'complete').length
      current = {
        ...current,
        items,
        completed_count: completed,
        status: completed === items.length ? 'completed' : current.status,
      }
    },
  }
}

export function evaluationStatus(
  id: string,
  conversationIds: string[],
  promptTemplate: string | null,
  status: EvaluationStatusResponse['status'] = 'pending',
): EvaluationStatusResponse {
  const items: EvaluationItem[] = conversationIds.map((conversationId, index) => ({
    id: `item-${index}`,
    status: 'pending',
    conversation_id: conversationId,
    conversation_title: index === 0 ? null : `Conversation ${index}`,
    org_slug: 'acme',
    org_name: 'Acme Corp',
    app_slug: 'counter',
    app_name: 'Counter',
    started_at: null,
    processing_time_ms: null,
    summary: null,
    error: null,
  }))
  return {
    id,
    status,
    created_at: new Date().toISOString(),
    completed_at: null,
    prompt_template: promptTemplate,
    custom_prompt: promptTemplate ? null : 'Judge it',
    concurrent_limit: 5,
    model: 'demo',
    conversation_count: items.length,
    completed_count: 0,
    failed_count: 0,
    items,
  }
}
