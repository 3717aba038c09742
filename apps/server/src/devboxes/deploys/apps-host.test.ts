// The apps host with production servers, over real HTTP against real boxes and real server
// processes (docs/architecture/devbox.md, "Production servers").
import { existsSync } from 'node:fs'
import path from 'node:path'
import {
  appServerProcesses,
  fullStackFixtureFiles,
} from '@sprout/devbox/testing/app-server-fixture.ts'
import { waitFor } from '@sprout/devbox/testing/devbox-support.ts'
import { beforeAll, describe, expect, it } from 'vitest'
import { useOrganizationHarness } from '../../testing/organization-harness.ts'
import { type RawResponse, rawRequest, sendRaw } from '../../testing/raw-request.ts'

const maxBodyBytes = 64 * 1024

describe('apps host with production servers', { timeout: 240_000 }, () => {
  // The owner signs up through the setup link, so is the platform admin: they may deploy.
  const setup = useOrganizationHarness({
    environment: { APPS_IDLE_MINUTES: '0.01', MAX_BODY_BYTES: String(maxBodyBytes) },
    organizationName: 'Back ends',
    listen: true,
  })
  const apps: Record<'full' | 'plain', { id: string; host: string }> = {} as never
  const headers = setup.headers

  const createApplication = async (prompt: string, files: Record<string, string>) => {
    const id = await setup.createReadyApplication(prompt)
    await setup.setVisibility(id, 'public')
    const box = setup.harness.devboxes.box(id)
    for (const [name, content] of Object.entries(files)) await box?.files.write(name, content)
    const details = await setup.request(`/api/applications/${id}`)
    const { preview_url: previewUrl } = (await details.json()) as { preview_url: string }
    return { id, host: new URL(previewUrl).host.replace('.preview.', '.apps.') }
  }

  const deploy = async (id: string) => {
    const response = await setup.harness.request(`/api/applications/${id}/deploy`, {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
    })
    return { status: response.status, body: (await response.json()) as { error?: string } }
  }

  const get = (host: string, requestPath: string) =>
    rawRequest(setup.harness.port, host, requestPath)
  const send = (host: string, requestPath: string, options: Parameters<typeof sendRaw>[3]) =>
    sendRaw(setup.harness.port, host, requestPath, options)
  const json = (response: RawResponse) => JSON.parse(response.body)

  beforeAll(async () => {
    apps.full = await createApplication('A notes app', fullStackFixtureFiles)
    apps.plain = await createApplication('An old static app', {
      'package.json': JSON.stringify({
        name: 'old',
        type: 'module',
        scripts: { build: 'node b.js' },
      }),
      'b.js':
        "import { mkdirSync, writeFileSync } from 'node:fs'\nmkdirSync('dist', { recursive: true })\nwriteFileSync('dist/index.html', '<title>old starter</title>')",
    })
    expect(await deploy(apps.full.id)).toEqual({ status: 200, body: expect.anything() })
    expect((await deploy(apps.plain.id)).status).toBe(200)
  })

  it('serves static files from client/, /api from the server, and never the server files', async () => {
    const page = await get(apps.full.host, '/')
    // With the error reporter's tag after the doctype (decision 016).
    expect(page.body).toMatch(
      /^<!doctype html><script src="\/__sprout\/reporter\.js" [^>]*><\/script><title>first version<\/title>$/,
    )
    expect((await get(apps.full.host, '/notes/today')).body).toBe(page.body)
    expect((await get(apps.full.host, '/apiary')).body).toBe(page.body)
    const version = await get(apps.full.host, '/api/version')
    expect(version.status).toBe(200)
    expect(version.headers['content-type']).toBe('application/json')
    expect(json(version).version).toBe('first version')
    for (const attempt of [
      '/server/index.js',
      '/../server/index.js',
      '/%2e%2e/server/index.js',
      '/..%2fserver%2findex.js',
      '/client/../server/index.js',
      '/assets/..%5c..%5cserver%5cindex.js',
    ]) {
      const answer = await get(apps.full.host, attempt)
      expect(answer.body, attempt).not.toContain('createServer')
    }
    const saved = await send(apps.full.host, '/api/notes', { method: 'POST', body: 'milk' })
    expect(saved.status).toBe(201)
    expect(json(await get(apps.full.host, '/api/notes')).notes).toEqual(['milk'])
  })

  it('answers 500 for a route that throws and keeps serving; Sprout is unaffected', async () => {
    const boom = await get(apps.full.host, '/api/boom')
    expect(boom.status).toBe(500)
    expect((await setup.harness.request('/healthz')).status).toBe(200)
    expect((await get(apps.full.host, '/api/version')).status).toBe(200)
  })

  it('keeps a deploy without a server static: /api is a 404 and reaches no server', async () => {
    expect((await get(apps.plain.host, '/')).body).toMatch(
      /^<script src="\/__sprout\/reporter\.js" [^>]*><\/script><title>old starter<\/title>$/,
    )
    for (const method of ['GET', 'POST', 'DELETE']) {
      const answer = await send(apps.plain.host, '/api/notes', { method, body: 'x' })
      expect(answer.status).toBe(404)
      expect(json(answer)).toEqual({ error: 'This app has no server.' })
    }
    expect((await get('nobody-here.apps.localhost', '/api/version')).status).toBe(404)
    expect(json(await get(apps.full.host, '/api/notes')).notes).toEqual(['milk'])
  })

  it('refuses a body past MAX_BODY_BYTES with 413, declared or streamed', async () => {
    const big = 'x'.repeat(maxBodyBytes + 1)
    const declared = await send(apps.full.host, '/api/echo', { method: 'POST', body: big })
    expect(declared.status).toBe(413)
    expect(json(declared).error).toMatch(/Request body is too large/)
    const streamed = await send(apps.full.host, '/api/echo', {
      method: 'POST',
      body: big,
      chunked: true,
    })
    expect(streamed.status).toBe(413)
    const fits = await send(apps.full.host, '/api/echo', { method: 'POST', body: 'y'.repeat(1000) })
    expect(json(fits)).toEqual({ bytes: 1000 })
  })

  it('redeploys under a steady stream of /api requests without a failed one', async () => {
    const box = setup.harness.devboxes.box(apps.full.id)
    await box?.files.write('src/message.txt', 'second version')
    let deploying = true
    let requests = 0
    const failures: string[] = []
    const loop = async () => {
      for (let count = 0; deploying && count < 1500; count += 1) {
        const answer = await get(apps.full.host, '/api/slow?ms=5').catch((error: Error) => ({
          status: 0,
          body: error.message,
        }))
        requests += 1
        if (answer.status !== 200) failures.push(`${answer.status} ${answer.body}`)
      }
    }
    const loops = [loop(), loop(), loop(), loop()]
    await waitFor(() => requests > 20, 30_000)
    const deployed = await deploy(apps.full.id)
    deploying = false
    await Promise.all(loops)
    expect(deployed.status).toBe(200)
    expect(failures).toEqual([])
    expect(requests).toBeGreaterThan(40)
    expect(json(await get(apps.full.host, '/api/version')).version).toBe('second version')
    expect(appServerProcesses(apps.full.id)).toHaveLength(1)
  })

  it('keeps the old deploy serving when the new server does not start, and says why', async () => {
    const box = setup.harness.devboxes.box(apps.full.id)
    await box?.files.write('src/message.txt', 'broken version')
    await box?.files.write('src/fail-start', '')
    const failed = await deploy(apps.full.id)
    await box?.files.delete('src/fail-start')
    expect(failed.status).toBe(422)
    expect(failed.body.error).toMatch(
      /^The server did not start: it exited \(exit code 1\)[\s\S]*fixture: failing at start on purpose/,
    )
    expect(json(await get(apps.full.host, '/api/version')).version).toBe('second version')
    expect(appServerProcesses(apps.full.id)).toHaveLength(1)
  })

  it('stops an idle server and starts it again for the next request, which waits', async () => {
    await waitFor(() => setup.harness.devboxes.appServers?.status(apps.full.id).state === 'stopped')
    await waitFor(() => appServerProcesses(apps.full.id).length === 0)
    const woken = await get(apps.full.host, '/api/notes')
    expect(woken.status).toBe(200)
    expect(json(woken).notes).toEqual(['milk'])
  })

  it('deploys the fullstack starter as it is: its server answers /api/health in production', async () => {
    const starter = await createApplication('The starter untouched', {})
    const deployed = await deploy(starter.id)
    expect(deployed).toEqual({ status: 200, body: expect.anything() })
    const health = await get(starter.host, '/api/health')
    expect(health.status).toBe(200)
    expect(json(health)).toEqual({ ok: true })
    expect((await get(starter.host, '/')).body).toContain('<div id="root">')
    // The builder's Select overlay is the preview's alone (docs/product/builder.md "Select mode").
    expect((await get(starter.host, '/')).body).not.toContain('/__sprout/select.js')
    expect((await get(starter.host, '/server/main.ts')).body).not.toContain('serve(')
    // Its database lives in the app's production data folder, written by the confined server.
    const saved = await send(starter.host, '/api/notes', {
      method: 'POST',
      body: JSON.stringify({ text: 'kept in production' }),
    })
    expect(saved.status).toBe(201)
    expect(json(await get(starter.host, '/api/notes')).notes).toMatchObject([
      { text: 'kept in production' },
    ])
    const dataFolder = path.join(setup.harness.config.dataDir, 'deploys', starter.id, 'data')
    expect(existsSync(path.join(dataFolder, 'app.db'))).toBe(true)
    expect((await send(starter.host, '/api/notes', { method: 'POST', body: '{}' })).status).toBe(
      400,
    )
  })

  it('stops the server and removes its data when the application is deleted', async () => {
    expect((await get(apps.full.host, '/api/version')).status).toBe(200)
    const removed = await setup.harness.request(`/api/applications/${apps.full.id}`, {
      method: 'DELETE',
      user: setup.owner,
      headers: headers(),
    })
    expect(removed.status).toBe(200)
    expect(appServerProcesses(apps.full.id)).toHaveLength(0)
    expect(existsSync(path.join(setup.harness.config.dataDir, 'deploys', apps.full.id))).toBe(false)
  })
})
