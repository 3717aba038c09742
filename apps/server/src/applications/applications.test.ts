import { existsSync } from 'node:fs'
import path from 'node:path'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { PREVIEW_COOKIE } from '../devboxes/hand-off/preview-session.ts'
import { handOffPath, waitForEditorReady } from '../testing/app-harness.ts'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { cookieFrom, rawRequest } from '../testing/raw-request.ts'
import { openWebSocket } from '../testing/raw-websocket.ts'

describe('applications', { timeout: 180_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Builders', listen: true })
  const headers = setup.headers

  const create = (body: unknown) =>
    setup.harness.request('/api/applications', {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
      body: JSON.stringify(body),
    })

  it('refuses bad input with a 400 naming the field, and creates nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: 'x', model: 'demo' }, /Missing field "initial_prompt"/],
      [{ initial_prompt: '   ', model: 'demo' }, /initial_prompt.*must not be empty/],
      [{ initial_prompt: 'ok', model: 'gpt-9000' }, /unknown model "gpt-9000"/],
      [{ initial_prompt: 'ok', model: 'claude-sonnet-4-5' }, /Set ANTHROPIC_API_KEY/],
      [{ initial_prompt: 42, model: 'demo' }, /Invalid field "initial_prompt"/],
      [{ name: 'x'.repeat(81), initial_prompt: 'ok', model: 'demo' }, /Invalid field "name"/],
    ]
    for (const [body, error] of cases) {
      const response = await create(body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(((await response.json()) as { error: string }).error).toMatch(error)
    }
    const malformed = await setup.harness.request('/api/applications', {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
      body: '{"initial_prompt": ',
    })
    expect(malformed.status).toBe(400)
    const list = await setup.harness.request('/api/applications', {
      user: setup.owner,
      headers: headers(),
    })
    expect(await list.json()).toEqual([])
  })

  it('creates, lists, deploys, keeps the live site through a failed build, and deletes everything', async () => {
    const created = await create({ initial_prompt: 'a habit tracker with streaks', model: 'demo' })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: string }
    await waitForEditorReady(setup.harness, setup.owner, setup.organizationId, id)

    const list = (await (
      await setup.harness.request('/api/applications', { user: setup.owner, headers: headers() })
    ).json()) as {
      id: string
      name: string
      preview_url: string
      prod_url?: string
    }[]
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ id, name: 'A habit tracker with streaks' })
    expect(list[0]?.preview_url).toMatch(
      /^http:\/\/a-habit-tracker-with-streaks-[0-9a-f]{6}\.preview\.localhost:\d+$/,
    )
    expect(list[0]?.prod_url).toBeUndefined()

    const appsHost = new URL(list[0]?.preview_url ?? '').host.replace('.preview.', '.apps.')
    await setup.setVisibility(id, 'public')
    expect((await rawRequest(setup.harness.port, appsHost, '/')).status).toBe(404)

    const deploy = await setup.harness.request(`/api/applications/${id}/deploy`, {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
    })
    expect(deploy.status).toBe(200)
    const deployed = (await deploy.json()) as { success: boolean; prod_url: string }
    expect(deployed.prod_url).toBe(`http://${appsHost}`)
    const live = await rawRequest(setup.harness.port, appsHost, '/')
    expect(live.status).toBe(200)
    expect(live.body).toMatch(/<script type="module"[^>]*src="\/assets\//)
    const clientRoute = await rawRequest(setup.harness.port, appsHost, '/settings/profile')
    expect(clientRoute.body).toBe(live.body)

    const box = setup.harness.devboxes.box(id)
    await box?.files.write('src/App.tsx', 'export default function App( {\n')
    const broken = await setup.harness.request(`/api/applications/${id}/deploy`, {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
    })
    expect(broken.status).toBe(422)
    expect(((await broken.json()) as { error: string }).error).toMatch(/The build failed/)
    expect((await rawRequest(setup.harness.port, appsHost, '/')).body).toBe(live.body)

    const detail = (await (
      await setup.harness.request(`/api/applications/${id}`, {
        user: setup.owner,
        headers: headers(),
      })
    ).json()) as {
      prod_url?: string
    }
    expect(detail.prod_url).toBe(`http://${appsHost}`)

    const workspace = box?.workspacePath ?? ''
    expect(existsSync(workspace)).toBe(true)
    const removed = await setup.harness.request(`/api/applications/${id}`, {
      method: 'DELETE',
      user: setup.owner,
      headers: headers(),
    })
    expect(removed.status).toBe(200)
    expect(existsSync(workspace)).toBe(false)
    expect(existsSync(path.join(setup.harness.config.dataDir, 'deploys', id))).toBe(false)
    expect((await rawRequest(setup.harness.port, appsHost, '/')).status).toBe(404)
    expect(
      (
        await setup.harness.request(`/api/applications/${id}`, {
          user: setup.owner,
          headers: headers(),
        })
      ).status,
    ).toBe(404)
    expect(setup.harness.devboxes.box(id)).toBeUndefined()
  })

  it('deletes an app whose box is still being made or taking its environment, leaving nothing', async () => {
    const created = await create({ initial_prompt: 'gone at once', model: 'demo' })
    const { id } = (await created.json()) as { id: string }
    const [row] = await setup.harness.database.db
      .select({ id: devboxes.id })
      .from(devboxes)
      .where(eq(devboxes.applicationId, id))
    // At once: the box is claimed from the pool (its dev server restarting) or still being built.
    const removed = await setup.harness.request(`/api/applications/${id}`, {
      method: 'DELETE',
      user: setup.owner,
      headers: headers(),
    })
    expect(removed.status, await removed.clone().text()).toBe(200)
    const workspace = path.join(
      setup.harness.config.dataDir,
      'devboxes',
      'workspaces',
      row?.id ?? '',
    )
    expect(existsSync(workspace)).toBe(false)
    expect(setup.harness.devboxes.box(id)).toBeUndefined()
  })

  it('sends HMR updates through the preview proxy over a WebSocket', async () => {
    const created = await create({ initial_prompt: 'hmr check', model: 'demo' })
    const { id } = (await created.json()) as { id: string }
    await waitForEditorReady(setup.harness, setup.owner, setup.organizationId, id)
    const { preview_url: previewUrl } = (await (
      await setup.harness.request(`/api/applications/${id}`, {
        user: setup.owner,
        headers: headers(),
      })
    ).json()) as { preview_url: string }
    const host = new URL(previewUrl).host
    const tokenResponse = await setup.harness.request('/api/org/devbox-token', {
      method: 'POST',
      user: setup.owner,
      body: JSON.stringify({ devbox_url: previewUrl }),
    })
    const { token } = (await tokenResponse.json()) as { token: string }
    const exchanged = await rawRequest(setup.harness.port, host, handOffPath(token))
    const cookie = cookieFrom(exchanged, PREVIEW_COOKIE) ?? ''
    // As a browser does: the page and its modules load (into Vite's module graph) before HMR.
    for (const module of ['/', '/src/main.tsx', '/src/App.tsx']) {
      expect((await rawRequest(setup.harness.port, host, module, { cookie })).status).toBe(200)
    }

    const messages: string[] = []
    const socket = await openWebSocket(setup.harness.port, host, cookie, (message) =>
      messages.push(message),
    )
    const box = setup.harness.devboxes.box(id)
    await box?.files.write(
      'src/App.tsx',
      `export default function App() {\n  return <h1>Changed ${Date.now()}</h1>\n}\n`,
    )
    const deadline = Date.now() + 10_000
    while (!messages.some((message) => message.includes('"update"')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    socket.destroy()
    expect(messages.some((message) => message.includes('"update"'))).toBe(true)

    const withoutCookie = await openWebSocket(setup.harness.port, host, '', () => undefined).then(
      () => 'opened',
      (error: Error) => error.message,
    )
    expect(withoutCookie).toMatch(/401/)
  })
})
