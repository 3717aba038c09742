import {
  type AdminIntegration,
  INTEGRATION_PRESETS,
  type Integration,
} from '@sprout/protocol/api/integrations.ts'
import { vi } from 'vitest'

type Answer = { status: number; body?: unknown }
export type FakeCall = { method: string; url: string; body?: unknown; headers: Headers }

/** An admin definition as GET /api/admin/integrations answers it. */
export function adminIntegration(overrides: Partial<AdminIntegration> = {}): AdminIntegration {
  return {
    service_name: 'linear',
    display_name: 'Linear',
    client_id: 'client-id-that-is-rather-long',
    has_client_secret: true,
    auth_url: 'https://linear.app/oauth/authorize',
    token_url: 'https://api.linear.app/oauth/token',
    revoke_url: null,
    scopes: ['read', 'write'],
    additional_params: {},
    preset: 'linear',
    redirect_uri: 'http://localhost/api/oauth/callback/linear',
    created_at: '2026-11-25T08:00:00Z',
    updated_at: '2026-11-25T08:00:00Z',
    ...overrides,
  }
}

/** An entry of GET /api/integrations. */
export function userIntegration(overrides: Partial<Integration> = {}): Integration {
  const service = overrides.service_name ?? 'linear'
  return {
    id: service,
    service_name: service,
    display_name: 'Linear',
    scopes: ['read', 'write'],
    connected: false,
    needs_reconnect: false,
    client_id: 'client-1',
    redirect_uri: `http://localhost/api/oauth/callback/${service}`,
    auth_url: 'https://linear.app/oauth/authorize',
    additional_params: {},
    preset: null,
    picker_script_url: null,
    ...overrides,
  }
}

/** The integration calls behind a stubbed fetch, with a queue of forced answers per path. */
export function fakeIntegrations(options: { admin?: AdminIntegration[]; user?: Integration[] }) {
  const admin = [...(options.admin ?? [])]
  const user = [...(options.user ?? [])]
  const forced = new Map<string, Answer[]>()
  const calls: FakeCall[] = []
  const handle = (method: string, path: string, body: Record<string, unknown>): Answer => {
    if (path === '/api/admin/integrations/presets')
      return { status: 200, body: INTEGRATION_PRESETS }
    if (path === '/api/admin/integrations' && method === 'GET') return { status: 200, body: admin }
    if (path.startsWith('/api/admin/integrations')) {
      const saved = adminIntegration({ ...(body as Partial<AdminIntegration>) })
      const index = admin.findIndex((item) => item.service_name === saved.service_name)
      if (index >= 0) admin[index] = saved
      else admin.push(saved)
      return { status: method === 'POST' ? 201 : 200, body: saved }
    }
    if (path === '/api/integrations') return { status: 200, body: user }
    if (path === '/api/oauth/state') {
      return {
        status: 200,
        body: {
          state: 's1',
          authorization_url: `https://auth.test/authorize?service=${body.integration_name}`,
        },
      }
    }
    if (path.endsWith('/token')) {
      return { status: 200, body: { access_token: 'token-1', expires_at: null } }
    }
    if (method === 'DELETE') return { status: 200, body: { success: true } }
    return { status: 404, body: { error: 'Not found' } }
  }
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, url, body, headers: new Headers(init.headers) })
    const answer = forced.get(`${method} ${url}`)?.shift() ?? handle(method, url, body ?? {})
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  return {
    calls,
    admin,
    /** The next `method path` call answers this instead. */
    force: (call: string, answer: Answer) =>
      forced.set(call, [...(forced.get(call) ?? []), answer]),
  }
}
