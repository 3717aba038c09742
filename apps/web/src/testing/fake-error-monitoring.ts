/** TEST HELPER: error monitoring's calls behind a stubbed fetch, with groups kept in memory. */
import type { ErrorGroup, ErrorInstance } from '@sprout/protocol/api/error-monitoring.ts'
import { sampleErrorGroup } from '@sprout/protocol/testing/error-group.ts'
import { vi } from 'vitest'

export const errorGroup = sampleErrorGroup

export function occurrence(index: number): ErrorInstance {
  return {
    id: `event-${index}`,
    source: 'browser',
    occurred_at: new Date(Date.now() - index * 60_000).toISOString(),
    context: { message: 'boom', url: `http://counter.preview.localhost/?visit=${index}` },
    session_data: { user_agent: 'Chrome', release: 'abc123' },
    stack: [`at frame${index} (src/App.tsx:${index}:1)`],
  }
}

export function fakeErrorMonitoring(groups: ErrorGroup[]) {
  const calls: { method: string; url: string; body?: unknown }[] = []
  let failing = false
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, url, body })
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })
    if (failing) return json(500, { error: 'database down' })
    const parsed = new URL(url, 'http://localhost')
    const errors = /\/groups\/([^/]+)\/errors$/.exec(parsed.pathname)
    if (errors) return json(200, { errors: Array.from({ length: 12 }, (_, i) => occurrence(i)) })
    const status = /\/groups\/([^/]+)\/status$/.exec(parsed.pathname)
    if (status && method === 'PATCH') {
      const group = groups.find((candidate) => candidate.id === decodeURIComponent(status[1] ?? ''))
      if (!group) return json(404, { error: 'Not found' })
      group.status = body.status
      return json(200, group)
    }
    const stats = /\/applications\/([^/]+)\/error-stats$/.exec(parsed.pathname)
    if (stats) {
      const own = groups.filter((group) => group.application_id === stats[1])
      const count = (state: string) => own.filter((group) => group.status === state).length
      return json(200, {
        active: count('active'),
        resolved: count('resolved'),
        ignored: count('ignored'),
        total_occurrences: own.reduce((total, group) => total + group.occurrence_count, 0),
      })
    }
    const wanted = parsed.searchParams.get('status')
    const app = parsed.searchParams.get('application_id')
    const appPath = /\/applications\/([^/]+)\/error-groups$/.exec(parsed.pathname)
    const limit = Number(parsed.searchParams.get('limit') ?? 50)
    const listed = groups
      .filter((group) => group.status === wanted)
      .filter((group) => !app || group.application_id === app)
      .filter((group) => !appPath || group.application_id === appPath[1])
    // The cursor is the index of the page's first group (the server's is opaque too).
    const from = Number(parsed.searchParams.get('cursor') ?? 0)
    const page = listed.slice(from, from + limit)
    const next = from + limit < listed.length ? String(from + limit) : null
    return json(200, { groups: page, next_cursor: next })
  })
  return {
    calls,
    fail: (value: boolean) => {
      failing = value
    },
  }
}
