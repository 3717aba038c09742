import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allowedAuthEndpoints } from './auth/auth-endpoints.ts'
import { createTestApp, type TestApp, waitForEditorReady } from './testing/app-harness.ts'
import {
  type MatrixFixture,
  type MatrixRequest,
  type Role,
  refusedAuthEndpoints,
  roles,
  routeMatrix,
} from './testing/route-matrix.ts'

type AuthEndpoint = { path?: unknown; options?: { method?: string | string[] } }

/** Sprout's own routes, and every endpoint better-auth defines (read off `auth.api`). */
function registeredApiRoutes(harness: TestApp): string[] {
  const routes = new Set<string>()
  for (const route of harness.app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/api/')) continue
    if (route.path.startsWith('/api/auth/')) continue
    routes.add(`${route.method} ${route.path}`)
  }
  for (const endpoint of Object.values(harness.auth.api as Record<string, AuthEndpoint>)) {
    if (typeof endpoint.path !== 'string') continue
    for (const method of [endpoint.options?.method ?? 'GET'].flat()) {
      routes.add(`${method} /api/auth${endpoint.path}`)
    }
  }
  return [...routes].sort()
}

describe('tenant isolation: route × role matrix', { timeout: 120_000 }, () => {
  let fixture: MatrixFixture
  beforeAll(async () => {
    const harness = await createTestApp()
    const platformAdmin = await harness.signUpAdmin()
    const organizationAdmin = await harness.signUp()
    const member = await harness.signUp()
    const otherOrganization = await harness.signUp()
    const organizationId = await harness.createOrganization(organizationAdmin, 'Tenant A')
    await harness.addMember(organizationId, organizationAdmin, member)
    await harness.addMember(organizationId, organizationAdmin, platformAdmin)
    await harness.createOrganization(otherOrganization, 'Tenant B')
    const createApplication = async () => {
      const response = await harness.request('/api/applications', {
        method: 'POST',
        user: organizationAdmin,
        headers: { 'organization-id': organizationId },
        body: JSON.stringify({ initial_prompt: 'Tenant A app', model: 'demo' }),
      })
      return ((await response.json()) as { id: string }).id
    }
    const applicationId = await createApplication()
    await waitForEditorReady(harness, organizationAdmin, organizationId, applicationId)
    const application = await harness.request(`/api/applications/${applicationId}`, {
      user: organizationAdmin,
      headers: { 'organization-id': organizationId },
    })
    const { preview_url: previewUrl } = (await application.json()) as { preview_url: string }
    fixture = {
      harness,
      organizationId,
      users: { platformAdmin, organizationAdmin, member, otherOrganization },
      application: { id: applicationId, previewUrl },
      createApplication,
    }
  })
  afterAll(() => fixture.harness.close())

  it('lists every registered API route in the matrix or as refused, and nothing else', () => {
    const registered = registeredApiRoutes(fixture.harness)
    const listed = [...Object.keys(routeMatrix), ...refusedAuthEndpoints]
    const missing = registered.filter((route) => !listed.includes(route))
    expect(missing, 'routes missing from testing/route-matrix.ts').toEqual([])
    const stale = listed.filter((route) => !registered.includes(route))
    expect(stale, 'matrix entries for routes that do not exist').toEqual([])
  })

  it('lets through exactly the better-auth endpoints the matrix expects to be reachable', () => {
    const reachable = Object.keys(routeMatrix)
      .filter((route) => route.includes(' /api/auth/'))
      .map((route) => route.replace(' /api/auth/', ' /'))
    // Only single sign-on's callback is allowed of better-auth's `/callback/:id`.
    const allowed = [...allowedAuthEndpoints].map((endpoint) =>
      endpoint.replace('/callback/sso', '/callback/:id'),
    )
    expect(allowed.sort()).toEqual(reachable.sort())
  })

  const send = async (route: string, role: Role, { path, init = {} }: MatrixRequest) => {
    const method = route.split(' ')[0]
    const headers = new Headers(init.headers)
    const acting = role === 'anonymous' ? undefined : fixture.users[role]
    if (acting && role !== 'otherOrganization')
      headers.set('organization-id', fixture.organizationId)
    const ownCredentials = headers.has('authorization')
    return fixture.harness.request(path, {
      ...init,
      method,
      headers,
      user: ownCredentials ? undefined : acting,
    })
  }
  /** Failures carry `{ "error": … }`; no body, failed or not, carries anybody's session token. */
  const expectSafeBody = async (response: Response) => {
    if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await response.body?.cancel()
      return
    }
    const text = await response.text()
    for (const user of Object.values(fixture.users)) expect(text).not.toContain(user.token)
    if (response.status < 400) return
    const body = JSON.parse(text) as { error?: unknown }
    expect(typeof body.error).toBe('string')
  }

  for (const [route, entry] of Object.entries(routeMatrix)) {
    for (const role of roles) {
      it(`${route} as ${role} → ${entry.expect[role]}`, async () => {
        const response = await send(route, role, await entry.request(fixture, role))
        const streamed = response.headers.get('content-type')?.includes('text/event-stream')
        const answer = streamed ? 'a stream' : await response.clone().text()
        expect(response.status, answer).toBe(entry.expect[role])
        await expectSafeBody(response)
      })
    }
  }

  for (const route of refusedAuthEndpoints) {
    it(`${route} → 404 for every role`, async () => {
      const path = (route.split(' ')[1] ?? '').replace(/:[a-z]+/gi, 'x')
      const userId = fixture.users.member.id
      for (const role of roles) {
        const init = route.startsWith('POST') ? { body: JSON.stringify({ userId }) } : {}
        const response = await send(route, role, { path, init })
        expect(response.status, `${route} as ${role}`).toBe(404)
        await expectSafeBody(response)
      }
    })
  }
})
