import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MatrixFixture, type Role, roles, routeMatrix } from './testing/route-matrix.ts'
import { createTestApp, type TestApp, waitForEditorReady } from './testing/test-app.ts'

function registeredApiRoutes(harness: TestApp): string[] {
  const routes = new Set<string>()
  for (const route of harness.app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/api/')) continue
    if (route.path.startsWith('/api/auth/')) continue
    routes.add(`${route.method} ${route.path}`)
  }
  return [...routes].sort()
}

describe('tenant isolation: route × role matrix', { timeout: 120_000 }, () => {
  let fixture: MatrixFixture
  beforeAll(async () => {
    const harness = await createTestApp()
    const platformAdmin = await harness.signUp()
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

  it('lists every registered API route in the matrix, and nothing else', () => {
    const registered = registeredApiRoutes(fixture.harness)
    const missing = registered.filter((route) => !(route in routeMatrix))
    expect(missing, 'routes missing from testing/route-matrix.ts').toEqual([])
    const stale = Object.keys(routeMatrix).filter((route) => !registered.includes(route))
    expect(stale, 'matrix entries for routes that do not exist').toEqual([])
  })

  for (const [route, entry] of Object.entries(routeMatrix)) {
    for (const role of roles) {
      it(`${route} as ${role} → ${entry.expect[role]}`, async () => {
        const { path, init = {} } = await entry.request(fixture)
        const method = route.split(' ')[0]
        const headers = new Headers(init.headers)
        const acting =
          role === 'anonymous' ? undefined : fixture.users[role as Exclude<Role, 'anonymous'>]
        if (acting && role !== 'otherOrganization')
          headers.set('organization-id', fixture.organizationId)
        const response = await fixture.harness.request(path, {
          ...init,
          method,
          headers,
          user: acting,
        })
        expect(response.status).toBe(entry.expect[role])
        if (response.status >= 400) {
          const body = (await response.json()) as { error?: unknown }
          expect(typeof body.error).toBe('string')
        }
      })
    }
  }
})
