import { devboxAuthTokens } from '@sprout/db/schema/devbox-auth-tokens.ts'
import { beforeAll, describe, expect, it } from 'vitest'
import { handOffPath, type TestUser } from '../../testing/app-harness.ts'
import {
  type PreviewedApplication,
  useOrganizationHarness,
} from '../../testing/organization-harness.ts'
import { cookieFrom, rawRequest } from '../../testing/raw-request.ts'
import { PREVIEW_COOKIE } from '../hand-off/preview-session.ts'

describe('preview origin isolation', { timeout: 120_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Preview org', listen: true })
  let outsider: TestUser
  const apps: Record<'a' | 'b', PreviewedApplication> = {} as never

  const issueToken = async (user: TestUser, previewUrl: string) => {
    const response = await setup.harness.request('/api/org/devbox-token', {
      method: 'POST',
      user,
      body: JSON.stringify({ devbox_url: previewUrl }),
    })
    return { status: response.status, token: ((await response.json()) as { token?: string }).token }
  }

  const callback = (host: string, token: string, returnPath = '/') =>
    rawRequest(setup.harness.port, host, handOffPath(token, returnPath))

  beforeAll(async () => {
    outsider = await setup.harness.signUp()
    apps.a = await setup.createPreviewedApplication('App A')
    apps.b = await setup.createPreviewedApplication('App B')
  })

  it('sends a visitor without a preview cookie to the hand-off, and refuses non-page requests', async () => {
    const page = await rawRequest(setup.harness.port, apps.a.host, '/some/page?x=1', {
      accept: 'text/html',
    })
    expect(page.status).toBe(302)
    const location = new URL(String(page.headers.location))
    expect(location.origin).toBe(setup.harness.origins.product)
    expect(location.pathname).toBe('/auth/devbox')
    expect(location.searchParams.get('devbox')).toBe(apps.a.previewUrl)
    expect(location.searchParams.get('return')).toBe('/some/page?x=1')
    const asset = await rawRequest(setup.harness.port, apps.a.host, '/src/main.tsx')
    expect(asset.status).toBe(401)
  })

  it('exchanges a single-use token for an HttpOnly preview cookie and proxies the dev server', async () => {
    const { status, token } = await issueToken(setup.owner, apps.a.previewUrl)
    expect(status).toBe(200)
    const exchanged = await callback(apps.a.host, token ?? '', '/?from=test')
    expect(exchanged.status).toBe(302)
    expect(exchanged.headers.location).toBe(`${apps.a.previewUrl}/?from=test`)
    const setCookie = String(exchanged.headers['set-cookie'])
    expect(setCookie).toMatch(/HttpOnly/)
    // The builder frames the preview cross-site: only a partitioned cookie survives there.
    expect(setCookie).toMatch(/SameSite=None; Secure; Partitioned/)
    expect(setCookie).not.toMatch(/Domain=/i)
    const cookie = cookieFrom(exchanged, PREVIEW_COOKIE) ?? ''
    const page = await rawRequest(setup.harness.port, apps.a.host, '/', {
      cookie,
      accept: 'text/html',
    })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<div id="root">')
    const entry = await rawRequest(setup.harness.port, apps.a.host, '/src/main.tsx', { cookie })
    expect(entry.status).toBe(200)
    expect(entry.body).toContain('createRoot')

    const reused = await callback(apps.a.host, token ?? '')
    expect(reused.status).toBe(401)
    expect(reused.body).toContain('Authentication Error')
    expect(reused.body).toContain('Return to Home')
  })

  it('puts the Select overlay into preview pages, talking to the product origin only, and tags elements with their source', async () => {
    const { token } = await issueToken(setup.owner, apps.a.previewUrl)
    const cookie = cookieFrom(await callback(apps.a.host, token ?? ''), PREVIEW_COOKIE) ?? ''
    const page = await rawRequest(setup.harness.port, apps.a.host, '/', {
      cookie,
      accept: 'text/html',
    })
    expect(page.body).toContain(
      `<script src="/__sprout/select.js" data-product-origin="${setup.harness.origins.product}"></script>`,
    )
    const overlay = await rawRequest(setup.harness.port, apps.a.host, '/__sprout/select.js', {
      cookie,
    })
    expect(overlay.status).toBe(200)
    expect(overlay.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(overlay.body).toContain('sprout-select')
    const app = await rawRequest(setup.harness.port, apps.a.host, '/src/App.tsx', { cookie })
    expect(app.body).toMatch(/"data-sprout-source": "src\/App\.tsx:\d+:\d+"/)
  })

  it("refuses app A's token and cookie at app B's preview", async () => {
    const { token } = await issueToken(setup.owner, apps.a.previewUrl)
    const wrongApp = await callback(apps.b.host, token ?? '')
    expect(wrongApp.status).toBe(401)

    const fresh = await issueToken(setup.owner, apps.a.previewUrl)
    const cookie = cookieFrom(await callback(apps.a.host, fresh.token ?? ''), PREVIEW_COOKIE) ?? ''
    const atB = await rawRequest(setup.harness.port, apps.b.host, '/src/main.tsx', { cookie })
    expect(atB.status).toBe(401)
  })

  it('refuses an expired token', async () => {
    const { token } = await issueToken(setup.owner, apps.a.previewUrl)
    await setup.harness.database.db
      .update(devboxAuthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
    expect((await callback(apps.a.host, token ?? '')).status).toBe(401)
  })

  it('refuses a forged or tampered cookie', async () => {
    const { token } = await issueToken(setup.owner, apps.a.previewUrl)
    const cookie = cookieFrom(await callback(apps.a.host, token ?? ''), PREVIEW_COOKIE) ?? ''
    const tampered = `${cookie.slice(0, -3)}abc`
    expect(
      (await rawRequest(setup.harness.port, apps.a.host, '/src/main.tsx', { cookie: tampered }))
        .status,
    ).toBe(401)
  })

  it('sends return paths that would leave the preview origin to its root', async () => {
    for (const evil of [
      '//evil.example',
      'https://evil.example/',
      'https:evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/%2F/evil.example',
      '/.//evil.example',
      '/..//evil.example',
      '/%2e//evil.example',
      '/x/..//evil.example',
      '/./\\evil.example',
      'javascript:alert(1)',
      '/\tevil',
      '/\t/evil.example',
      '/\n/evil.example',
      '/%09/evil.example',
    ]) {
      const { token } = await issueToken(setup.owner, apps.a.previewUrl)
      const response = await callback(apps.a.host, token ?? '', evil)
      expect(response.status, evil).toBe(302)
      const location = new URL(String(response.headers.location))
      expect(location.origin, evil).toBe(apps.a.previewUrl)
      expect(location.pathname.startsWith('//'), evil).toBe(false)
      expect(location.host, evil).not.toContain('evil')
    }
  })

  it('issues no token to a user of another organization, nor for a non-preview URL', async () => {
    expect((await issueToken(outsider, apps.a.previewUrl)).status).toBe(404)
    expect((await issueToken(setup.owner, 'http://evil.example/')).status).toBe(404)
    expect((await issueToken(setup.owner, 'not a url')).status).toBe(400)
  })

  it('never sends product cookies to preview or apps hosts', async () => {
    const signUp = await setup.harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email: 'hostonly@example.com',
        password: 'correct-horse-battery',
        name: 'h',
      }),
    })
    for (const cookie of signUp.headers.getSetCookie()) expect(cookie).not.toMatch(/Domain=/i)
    const productOnPreview = await rawRequest(
      setup.harness.port,
      apps.a.host,
      '/api/admin/status',
      {
        authorization: `Bearer ${setup.owner.token}`,
      },
    )
    expect(productOnPreview.status).toBe(401)
  })

  it('cuts a member who left off the preview on the next request', async () => {
    const member = await setup.harness.signUp()
    await setup.harness.addMember(setup.organizationId, setup.owner, member)
    const { token } = await issueToken(member, apps.a.previewUrl)
    const cookie = cookieFrom(await callback(apps.a.host, token ?? ''), PREVIEW_COOKIE) ?? ''
    expect(
      (await rawRequest(setup.harness.port, apps.a.host, '/src/main.tsx', { cookie })).status,
    ).toBe(200)
    await setup.harness.request('/api/auth/organization/leave', {
      method: 'POST',
      user: member,
      body: JSON.stringify({ organizationId: setup.organizationId }),
    })
    expect(
      (await rawRequest(setup.harness.port, apps.a.host, '/src/main.tsx', { cookie })).status,
    ).toBe(401)
  })
})
