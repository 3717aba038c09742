// Long file: every case shares one pair of deployed apps (a box and a build each), so they stay
// in one describe block rather than pay for the deploys again.
// Who may open a deploy (docs/product/deploys.md "Who may open a deploy", decision 046): over
// real HTTP, a real box and the app's real production server, with the hand-off through Sprout.
import { createPublicKey, verify } from 'node:crypto'
import { user as userTable } from '@sprout/db/schema/auth.ts'
import { fullStackFixtureFiles } from '@sprout/devbox/testing/app-server-fixture.ts'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { handOffPath, type TestUser } from '../../testing/app-harness.ts'
import { useOrganizationHarness } from '../../testing/organization-harness.ts'
import { cookieFrom, type RawResponse, rawRequest } from '../../testing/raw-request.ts'
import { APP_COOKIE, PREVIEW_COOKIE } from '../hand-off/preview-session.ts'

describe('private apps', { timeout: 240_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Acme', listen: true })
  let app: { id: string; host: string; origin: string; previewUrl: string }
  let other: { id: string; host: string }
  let member: TestUser
  let outsider: TestUser

  const get = (host: string, path: string, headers: Record<string, string> = {}) =>
    rawRequest(setup.harness.port, host, path, headers)
  const page = (host: string, path: string, cookie?: string) =>
    get(host, path, { accept: 'text/html', ...(cookie ? { cookie } : {}) })
  const json = (response: RawResponse) => JSON.parse(response.body)
  const patch = (user: TestUser, id: string, body: unknown, organizationId?: string) =>
    setup.harness.request(`/api/applications/${id}`, {
      method: 'PATCH',
      user,
      headers: organizationId ? { 'organization-id': organizationId } : {},
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })

  /** The hand-off as the browser does it: a token from Sprout, then the app's callback. */
  const signIn = async (user: TestUser, host: string, returnPath = '/') => {
    const issued = await setup.harness.request('/api/org/devbox-token', {
      method: 'POST',
      user,
      body: JSON.stringify({ devbox_url: `http://${host}` }),
    })
    const { token } = (await issued.json()) as { token: string }
    const callback = await get(host, handOffPath(token, returnPath))
    return { callback, token, cookie: cookieFrom(callback, APP_COOKIE) ?? '' }
  }

  const identityOf = (response: RawResponse) => {
    const { identity } = json(response) as { identity: string | null }
    if (!identity) return null
    const [header, claims, signature] = identity.split('.') as [string, string, string]
    const jwk = setup.harness.created.appIdentity.jwks.keys[0] as { x: string }
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' })
    const valid = verify(
      null,
      Buffer.from(`${header}.${claims}`),
      key,
      Buffer.from(signature, 'base64url'),
    )
    return { valid, claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) }
  }

  const deployed = async (prompt: string) => {
    const id = await setup.createReadyApplication(prompt)
    const box = setup.harness.devboxes.box(id)
    for (const [name, content] of Object.entries(fullStackFixtureFiles)) {
      await box?.files.write(name, content)
    }
    const deploy = await setup.request(`/api/applications/${id}/deploy`, { method: 'POST' })
    expect(deploy.status, await deploy.clone().text()).toBe(200)
    const details = await setup.request(`/api/applications/${id}`)
    const { prod_url: prodUrl, preview_url: previewUrl } = (await details.json()) as {
      prod_url: string
      preview_url: string
    }
    return { id, host: new URL(prodUrl).host, origin: prodUrl, previewUrl }
  }

  beforeAll(async () => {
    member = await setup.harness.signUp()
    await setup.harness.addMember(setup.organizationId, setup.owner, member)
    outsider = await setup.harness.signUp()
    await setup.harness.createOrganization(outsider, 'Outsiders')
    app = await deployed('An organization’s notes')
    other = await deployed('Another app')
  })

  it('is for the organization by default, and only its admins may change that', async () => {
    const details = await setup.request(`/api/applications/${app.id}`)
    expect(await details.json()).toMatchObject({
      visibility: 'organization',
      allowed_emails: [],
      visibility_choices: ['public', 'organization', 'people'],
    })
    const asMember = await setup.harness.request(`/api/applications/${app.id}`, {
      user: member,
      headers: setup.headers(),
    })
    expect((await asMember.json()).visibility_choices).toEqual([])
    const refused = await patch(member, app.id, { visibility: 'public' }, setup.organizationId)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({
      error: 'Only an organization admin can change who may open this app.',
    })
    // Another organization's admin naming this app: not found, and nothing changes.
    expect((await patch(outsider, app.id, { visibility: 'public' })).status).toBe(404)
    expect((await page(app.host, '/')).status).toBe(302)
  })

  it('refuses bad input with a 400 and changes nothing', async () => {
    for (const body of [
      { visibility: 'people' },
      { visibility: 'people', allowed_emails: [] },
      { visibility: 'people', allowed_emails: ['not an address'] },
      { visibility: 'people', allowed_emails: ['a\u0000@example.com'] },
      { visibility: 'people', allowed_emails: ['\ud800@example.com'] },
      { visibility: 'people', allowed_emails: Array.from({ length: 101 }, (_, i) => `p${i}@x.io`) },
      { visibility: 'everyone' },
      { visibility: 'public', owner: 'me' },
      '{"visibility":',
    ]) {
      const answer = await patch(setup.owner, app.id, body, setup.organizationId)
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400)
      expect(await answer.json()).toHaveProperty('error')
    }
    const huge = await patch(
      setup.owner,
      app.id,
      { visibility: 'people', allowed_emails: ['a'.repeat(2_000_000)] },
      setup.organizationId,
    )
    expect(huge.status).toBe(413)
    const details = await setup.request(`/api/applications/${app.id}`)
    expect(await details.json()).toMatchObject({ visibility: 'organization', allowed_emails: [] })
  })

  it('sends an anonymous page to Sprout’s sign-in and back; /api gets a 401', async () => {
    const answer = await page(app.host, '/notes/today?tab=2')
    expect(answer.status).toBe(302)
    const location = new URL(String(answer.headers.location))
    expect(location.origin).toBe(setup.harness.origin)
    expect(location.pathname).toBe('/auth/devbox')
    expect(location.searchParams.get('devbox')).toBe(app.origin)
    expect(location.searchParams.get('return')).toBe('/notes/today?tab=2')
    const api = await get(app.host, '/api/version')
    expect(api.status).toBe(401)
    expect(json(api)).toEqual({ error: 'Sign in to Sprout to use this app.' })
    // A static file without a page's Accept: refused too, never the deploy's bytes.
    expect((await get(app.host, '/assets/app.js')).status).toBe(401)
  })

  it('lets a member in through the hand-off, with their identity and without Sprout’s cookie', async () => {
    const { callback, cookie } = await signIn(member, app.host, '/notes?x=1')
    expect(callback.status).toBe(302)
    expect(callback.headers.location).toBe(`${app.origin}/notes?x=1`)
    const setCookie = String(callback.headers['set-cookie'])
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Lax/)
    const opened = await page(app.host, '/', cookie)
    expect(opened.body, String(opened.status)).toContain('<title>first version</title>')
    const whoami = await get(app.host, '/api/whoami', {
      cookie: `${cookie}; theirs=1`,
      // A client's own identity never reaches the app.
      'x-sprout-identity': 'forged.by.client',
    })
    expect(json(whoami).cookie).toBe('theirs=1')
    const identity = identityOf(whoami)
    expect(identity?.valid).toBe(true)
    expect(identity?.claims).toMatchObject({
      iss: setup.harness.origin,
      aud: app.origin,
      sub: member.id,
      email: member.email,
      org: setup.organizationId,
      role: 'member',
    })
  })

  it('strips an identity and an address a client sent to a public app', async () => {
    await setup.setVisibility(other.id, 'public')
    const whoami = await get(other.host, '/api/whoami', {
      'x-sprout-identity': 'forged',
      // Nor the address a client claims: an app's per-visitor limits see the connection's.
      'x-forwarded-for': '203.0.113.9',
    })
    expect(whoami.status).toBe(200)
    expect(json(whoami).identity).toBeNull()
    expect(json(whoami).forwardedFor).toBe('127.0.0.1')
  })

  it('keeps the return path on the app’s origin and the token single-use', async () => {
    for (const evil of [
      '//evil.example/',
      'https://evil.example/',
      '/\\evil.example',
      '/%2F/evil',
    ]) {
      const { callback } = await signIn(member, app.host, evil)
      expect(new URL(String(callback.headers.location)).origin, evil).toBe(app.origin)
    }
    const { token } = await signIn(member, app.host)
    expect((await get(app.host, handOffPath(token))).status).toBe(401)
  })

  it('shows a signed-in outsider a 403 page that says whose app it is', async () => {
    const { cookie } = await signIn(outsider, app.host)
    expect(cookie).not.toBe('')
    const refused = await page(app.host, '/', cookie)
    expect(refused.status).toBe(403)
    expect(refused.body).toContain('This app belongs to Acme.')
    expect(refused.body).toContain(`Ask an admin of Acme to give ${outsider.email} access.`)
    const api = await get(app.host, '/api/version', { cookie })
    expect(api.status).toBe(403)
    expect(json(api).error).toContain('This app belongs to Acme.')
  })

  it('never takes one app’s cookie, or the preview’s, for another', async () => {
    const { cookie } = await signIn(member, app.host)
    const otherApp = await deployedVisibility(other.id, 'organization')
    expect((await page(otherApp, '/', cookie)).status).toBe(302)
    // The preview's cookie of the same app and user is signed with another key.
    const issued = await setup.harness.request('/api/org/devbox-token', {
      method: 'POST',
      user: member,
      body: JSON.stringify({ devbox_url: app.previewUrl }),
    })
    const { token } = (await issued.json()) as { token: string }
    const preview = await get(new URL(app.previewUrl).host, handOffPath(token))
    const previewCookie = cookieFrom(preview, PREVIEW_COOKIE) ?? ''
    expect(previewCookie).not.toBe('')
    const value = previewCookie.split('=')[1]
    expect((await page(app.host, '/', `${APP_COOKIE}=${value}`)).status).toBe(302)
    // A token made for the apps host does not open the preview, nor the other way round.
    const forApps = (await signIn(member, app.host)).token
    expect(forApps).toBeTruthy()
    const appToken = await setup.harness.request('/api/org/devbox-token', {
      method: 'POST',
      user: member,
      body: JSON.stringify({ devbox_url: app.origin }),
    })
    const unused = ((await appToken.json()) as { token: string }).token
    expect((await get(new URL(app.previewUrl).host, handOffPath(unused))).status).toBe(401)
  })

  it('refuses a removed member at once, and opens to anyone at once when made public', async () => {
    const leaver = await setup.harness.signUp()
    await setup.harness.addMember(setup.organizationId, setup.owner, leaver)
    const { cookie } = await signIn(leaver, app.host)
    expect((await get(app.host, '/api/version', { cookie })).status).toBe(200)
    await setup.harness.request('/api/auth/organization/leave', {
      method: 'POST',
      user: leaver,
      body: JSON.stringify({ organizationId: setup.organizationId }),
    })
    expect((await get(app.host, '/api/version', { cookie })).status).toBe(403)

    await setup.setVisibility(app.id, 'public')
    expect((await get(app.host, '/api/version')).status).toBe(200)
    expect((await page(app.host, '/')).status).toBe(200)
    // Signed in or not, a public app's server still learns who calls when it can.
    const whoami = await get(app.host, '/api/whoami', {
      cookie: (await signIn(outsider, app.host)).cookie,
    })
    expect(identityOf(whoami)?.claims).toMatchObject({ sub: outsider.id, role: null })
    await setup.setVisibility(app.id, 'organization')
    expect((await get(app.host, '/api/version')).status).toBe(401)
  })

  it('opens to listed people with a verified address, and to the organization’s admins', async () => {
    const listed = await setup.harness.signUp()
    await setup.setVisibility(app.id, 'people', [listed.email.toUpperCase()])
    const details = await setup.request(`/api/applications/${app.id}`)
    expect((await details.json()).allowed_emails).toEqual([listed.email.toLowerCase()])

    const unverified = await signIn(listed, app.host)
    const refused = await page(app.host, '/', unverified.cookie)
    expect(refused.status).toBe(403)
    expect(refused.body).toContain('once the address is verified')
    await setup.harness.database.db
      .update(userTable)
      .set({ emailVerified: true })
      .where(eq(userTable.id, listed.id))
    await setup.harness.authCache.flush()
    const whoami = await get(app.host, '/api/whoami', { cookie: unverified.cookie })
    expect(identityOf(whoami)?.claims).toMatchObject({ sub: listed.id, role: null })

    // A member who is not listed is refused; the owner, who may change the list, is not.
    const memberCookie = (await signIn(member, app.host)).cookie
    expect((await get(app.host, '/api/version', { cookie: memberCookie })).status).toBe(403)
    const ownerCookie = (await signIn(setup.owner, app.host)).cookie
    expect((await get(app.host, '/api/version', { cookie: ownerCookie })).status).toBe(200)
  })

  /** Sets the other app's visibility and answers its host. */
  const deployedVisibility = async (id: string, visibility: 'organization' | 'public') => {
    await setup.setVisibility(id, visibility)
    return other.host
  }
})

describe('a personal app', { timeout: 120_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Unused' })

  it('is public by default, and may be public or for listed people only', async () => {
    // A new account's only organization is its personal one.
    const owner = await setup.harness.signUp()
    const created = await setup.harness.request('/api/applications', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({ initial_prompt: 'My own app', model: 'demo' }),
    })
    const { id } = (await created.json()) as { id: string }
    const details = await setup.harness.request(`/api/applications/${id}`, { user: owner })
    expect(await details.json()).toMatchObject({
      visibility: 'public',
      visibility_choices: ['public', 'people'],
    })
    const refused = await setup.harness.request(`/api/applications/${id}`, {
      method: 'PATCH',
      user: owner,
      body: JSON.stringify({ visibility: 'organization' }),
    })
    expect(refused.status).toBe(400)
    expect((await refused.json()).error).toMatch(
      /A personal app is public or open to listed people/,
    )
    const people = await setup.harness.request(`/api/applications/${id}`, {
      method: 'PATCH',
      user: owner,
      body: JSON.stringify({ visibility: 'people', allowed_emails: ['friend@example.com'] }),
    })
    expect(await people.json()).toEqual({
      visibility: 'people',
      allowed_emails: ['friend@example.com'],
    })
  })
})
