import { describe, expect, it } from 'vitest'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { carriesSessionCookie } from './same-origin.ts'

const foreign = 'http://evil.example'

describe('same-origin check of cookie-authenticated writes', () => {
  const setup = useOrganizationHarness({ organizationName: 'Origin checked', timeoutMs: 60_000 })

  const createApplication = (headers: Record<string, string>) =>
    setup.harness.request('/api/applications', {
      method: 'POST',
      headers: { 'organization-id': setup.organizationId, ...headers },
      body: JSON.stringify({ initial_prompt: 'A counter', model: 'demo' }),
    })
  const applicationCount = async () => {
    const response = await setup.harness.request('/api/applications', {
      user: setup.owner,
      headers: { 'organization-id': setup.organizationId },
    })
    return ((await response.json()) as unknown[]).length
  }

  it('refuses a foreign cookie write whatever Authorization header it also carries', async () => {
    const before = await applicationCount()
    for (const authorization of [
      'Basic eDp4',
      'Bearer not-a-token',
      `Bearer ${setup.owner.token}`,
      'x',
      '',
    ]) {
      const response = await createApplication({
        cookie: setup.owner.cookie,
        authorization,
        origin: foreign,
      })
      expect(response.status, `Authorization: ${authorization}`).toBe(403)
      expect(((await response.json()) as { error: string }).error).toMatch(/not trusted/)
    }
    const withoutOrigin = await setup.harness.app.request('/api/applications', {
      method: 'POST',
      headers: {
        cookie: setup.owner.cookie,
        authorization: 'Basic eDp4',
        'organization-id': setup.organizationId,
      },
      body: JSON.stringify({ initial_prompt: 'A counter', model: 'demo' }),
    })
    expect(withoutOrigin.status).toBe(403)
    expect(await applicationCount()).toBe(before)
  })

  it('refuses the same on better-auth routes', async () => {
    const response = await setup.harness.request('/api/auth/organization/create', {
      method: 'POST',
      headers: { cookie: setup.owner.cookie, authorization: 'Basic eDp4', origin: foreign },
      body: JSON.stringify({ name: 'Forged', slug: `forged-${Date.now()}` }),
    })
    expect(response.status).toBe(403)
  })

  it('lets through a bearer call without the session cookie, from any origin', async () => {
    const before = await applicationCount()
    const bearer = `Bearer ${setup.owner.token}`
    expect((await createApplication({ authorization: bearer, origin: foreign })).status).toBe(201)
    const otherCookie = await createApplication({
      authorization: bearer,
      cookie: 'theme=dark',
      origin: foreign,
    })
    expect(otherCookie.status).toBe(201)
    expect(await applicationCount()).toBe(before + 2)
  })

  it('lets through a cookie write from the product origin', async () => {
    const response = await createApplication({ cookie: setup.owner.cookie })
    expect(response.status).toBe(201)
  })
})

describe('carriesSessionCookie', () => {
  it("recognises better-auth's cookies, secure-prefixed too, and nothing else", () => {
    expect(carriesSessionCookie('sprout.session_token=abc')).toBe(true)
    expect(carriesSessionCookie('theme=dark; __Secure-sprout.session_token=abc')).toBe(true)
    expect(carriesSessionCookie('theme=dark;sprout.session_data=abc')).toBe(true)
    expect(carriesSessionCookie('theme=dark; notsprout.session_token=abc')).toBe(false)
    expect(carriesSessionCookie('theme=sprout.session_token=abc')).toBe(false)
    expect(carriesSessionCookie(undefined)).toBe(false)
  })
})
