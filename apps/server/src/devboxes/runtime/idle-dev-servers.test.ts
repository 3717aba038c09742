// Idle dev servers (docs/architecture/devbox.md "Idle dev servers") with the real local driver,
// real HTTP and a tiny DEVBOX_IDLE_MINUTES. One harness, scenarios in order: each one starts
// from the dev servers the previous one left idle.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handOffPath, waitForEditorReady } from '../../testing/app-harness.ts'
import {
  type PreviewedApplication,
  useOrganizationHarness,
} from '../../testing/organization-harness.ts'
import { cookieFrom, rawRequest } from '../../testing/raw-request.ts'
import { PREVIEW_COOKIE } from '../hand-off/preview-session.ts'

/** 1.8 s: long enough for a dev server to start on a loaded machine before it may idle again. */
const idleMinutes = 0.03
const idleMs = idleMinutes * 60_000

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('idle dev servers', { timeout: 180_000 }, () => {
  let gates: string
  beforeAll(async () => {
    gates = await mkdtemp(path.join(os.tmpdir(), 'sprout-idle-gates-'))
  })
  afterAll(() => rm(gates, { recursive: true, force: true }))
  const setup = useOrganizationHarness({
    environment: () => ({
      DEVBOX_IDLE_MINUTES: String(idleMinutes),
      DEVBOX_POOL_TARGET: '1',
      DEMO_TEST_GATES_DIR: gates,
    }),
    organizationName: 'Idle org',
    listen: true,
  })
  const apps: Record<'a' | 'b', PreviewedApplication> = {} as never

  const call = async (pathname: string, body?: unknown) => {
    const response = await setup.request(
      pathname,
      body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) },
    )
    return (await response.json()) as Record<string, unknown>
  }

  const status = (app: 'a' | 'b') => setup.harness.devboxes.devServerStatus(apps[app].id)
  const stopped = (app: 'a' | 'b') => waitFor(() => status(app) === 'stopped', `${app} to idle`)

  const previewCookie = async (app: 'a' | 'b') => {
    const { token } = (await call('/api/org/devbox-token', {
      devbox_url: apps[app].previewUrl,
    })) as { token: string }
    const callback = await rawRequest(setup.harness.port, apps[app].host, handOffPath(token))
    return cookieFrom(callback, PREVIEW_COOKIE) ?? ''
  }

  /** Sends a Demo message to app A; resolves with the run's id once it is started. */
  const send = async (message: string, conversationId?: string) =>
    (await call(`/api/demo/applications/${apps.a.id}/message`, {
      message,
      model: 'demo',
      ...(conversationId ? { conversation_id: conversationId } : {}),
    })) as { conversation_id: string; run_id: string }

  const runStatus = async (conversationId: string) => {
    const { runs } = await import('@sprout/db/schema/runs.ts')
    const { eq } = await import('drizzle-orm')
    const rows = await setup.harness.database.db
      .select({ status: runs.status })
      .from(runs)
      .where(eq(runs.conversationId, conversationId))
    return rows.map((row) => row.status)
  }

  beforeAll(async () => {
    apps.a = await setup.createPreviewedApplication('App A')
    apps.b = await setup.createPreviewedApplication('App B')
  })

  it("stops an idle app's dev server while the pool's ready box keeps running", async () => {
    await waitFor(
      () => setup.harness.devboxes.pool.stats().packs.fullstack?.ready === 1,
      'the pool',
    )
    const poolReadySince = Date.now()
    await stopped('a')
    await stopped('b')
    await waitFor(() => Date.now() - poolReadySince > 2 * idleMs, 'two idle times')
    const poolBox = await setup.harness.devboxes.pool.claim('fullstack')
    expect(poolBox?.devServer.status()).toBe('running')
  })

  it('answers a preview request by starting the dev server again', async () => {
    await stopped('a')
    const cookie = await previewCookie('a')
    let page = await rawRequest(setup.harness.port, apps.a.host, '/', {
      cookie,
      accept: 'text/html',
    })
    // A loaded machine may take longer than a page waits: the browser gets a page that reloads
    // itself, never an error, and does so until the app answers.
    while (page.status === 503) {
      expect(page.body).toContain('Starting preview…')
      expect(page.body).toContain('http-equiv="refresh"')
      page = await rawRequest(setup.harness.port, apps.a.host, '/', { cookie, accept: 'text/html' })
    }
    expect(page.status).toBe(200)
    expect(page.body).toContain('<div id="root">')
    const entry = await rawRequest(setup.harness.port, apps.a.host, '/src/main.tsx', { cookie })
    expect(entry.status).toBe(200)
  })

  it("tells the builder 'starting preview' while it starts again, then ready", async () => {
    await stopped('a')
    const readiness = await call(`/api/applications/${apps.a.id}/editor-ready`)
    expect(readiness).toEqual({ ready: false, starting_preview: true })
    await waitForEditorReady(setup.harness, setup.owner, setup.organizationId, apps.a.id)
  })

  it('keeps it running while a builder listens, and lets it idle once the builder closes', async () => {
    const sent = await send('roll 2d6')
    await waitFor(async () => (await runStatus(sent.conversation_id))[0] === 'finished', 'the run')
    const { token } = (await call('/api/auth/token')) as { token: string }
    const builder = new AbortController()
    const listening = await fetch(
      `http://127.0.0.1:${setup.harness.port}/api/demo/applications/${apps.a.id}/listen?conversation_id=${sent.conversation_id}&token=${token}`,
      { signal: builder.signal },
    )
    expect(listening.status).toBe(200)
    await waitForEditorReady(setup.harness, setup.owner, setup.organizationId, apps.a.id)
    // B is used now and left alone: once it idles, A, held by the builder, is past its idle time too.
    await waitForEditorReady(setup.harness, setup.owner, setup.organizationId, apps.b.id)
    await stopped('b')
    expect(status('a')).toBe('running')
    builder.abort()
    await listening.body?.cancel().catch(() => undefined)
    await stopped('a')
  })

  it('keeps it running during an agent run, and a run after idling gets its box back', async () => {
    const held = await send('what time is it [test-gate:idle-run]')
    await waitForEditorReady(setup.harness, setup.owner, setup.organizationId, apps.b.id)
    await stopped('b')
    expect(status('a')).toBe('running')
    expect(await runStatus(held.conversation_id)).toEqual(['running'])
    await writeFile(path.join(gates, 'idle-run'), '')
    await waitFor(
      async () => (await runStatus(held.conversation_id))[0] === 'finished',
      'the held run',
    )

    await stopped('a')
    const later = await send('what time is it', held.conversation_id)
    await waitFor(
      async () => (await runStatus(held.conversation_id)).every((state) => state === 'finished'),
      'the run after idling',
    )
    expect(later.run_id).toBeTruthy()
    expect(['starting', 'running']).toContain(status('a'))
  })
})
