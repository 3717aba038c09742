// Dev boxes across a server restart; on PGlite only (vitest.config.ts: what they store is tested
// on PostgreSQL by start-server.test.ts and the other suites).
import { randomUUID } from 'node:crypto'
import { cp } from 'node:fs/promises'
import path from 'node:path'
import { applications } from '@sprout/db/schema/applications.ts'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from '../../config/config.ts'
import { startServer } from '../../start-server.ts'
import { testDatabaseKind } from '../../testing/database.ts'
import { requestServer, serverEnvironment, signUpOverHttp } from '../../testing/server-process.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const environmentForThisDatabase = () => serverEnvironment(cleanups, 'sprout-restart-')
const call = requestServer

describe(`dev boxes across a restart (${testDatabaseKind})`, () => {
  it("brings every app's box back with its workspace intact and its dev server running", {
    timeout: 120_000,
  }, async () => {
    const config = parseConfig(await environmentForThisDatabase())
    const first = await startServer(config, { serveWeb: false })
    const base = `http://127.0.0.1:${first.port}`
    const token = await signUpOverHttp(base, { email: 'boxes@example.com', name: 'b' })
    const auth = { authorization: `Bearer ${token}` }
    const created = await call(base, '/api/applications', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ initial_prompt: 'survive a restart', model: 'demo' }),
    })
    const { id } = (await created.json()) as { id: string }
    const waitReady = async (server: string) => {
      for (let attempt = 0; attempt < 120; attempt++) {
        const response = await call(server, `/api/applications/${id}/editor-ready`, {
          headers: auth,
        })
        if (((await response.json()) as { ready: boolean }).ready) return true
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
      return false
    }
    expect(await waitReady(base)).toBe(true)
    await first.devboxes.box(id)?.files.write('src/kept.txt', 'still here')
    await first.stop()

    const second = await startServer(config, { serveWeb: false })
    cleanups.push(second.stop)
    // Issue 20: the box exists, so the builder says 'Starting preview…', not a new app's text.
    const reopening = await call(
      `http://127.0.0.1:${second.port}`,
      `/api/applications/${id}/editor-ready`,
      { headers: auth },
    )
    expect(await reopening.json()).toEqual({ ready: false, starting_preview: true })
    expect(await waitReady(`http://127.0.0.1:${second.port}`)).toBe(true)
    expect(await second.devboxes.box(id)?.files.read('src/kept.txt')).toBe('still here')
  })
})

describe(`start-up with many workspaces (${testDatabaseKind})`, () => {
  it('answers at once with 30 workspaces, opens a box on first use; the first continue waits for it', {
    timeout: 180_000,
  }, async () => {
    const environment = await environmentForThisDatabase()
    const config = parseConfig(environment)
    const first = await startServer(config, { serveWeb: false })
    const base = `http://127.0.0.1:${first.port}`
    const auth = {
      authorization: `Bearer ${await signUpOverHttp(base, { email: 'many@example.com', name: 'm' })}`,
    }
    const created = await call(base, '/api/applications', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ initial_prompt: 'one of thirty', model: 'demo' }),
    })
    const { id } = (await created.json()) as { id: string }
    for (let attempt = 0; attempt < 240 && first.devboxes.state(id) !== 'ready'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(first.devboxes.state(id)).toBe('ready')
    // A conversation to continue after the restart.
    const firstMessage = await call(base, `/api/demo/applications/${id}/message`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        message: 'Before the restart',
        model: 'demo',
        client_id: randomUUID(),
      }),
    })
    const { conversation_id: earlier } = (await firstMessage.json()) as { conversation_id: string }
    await first.created.conversations.runs.settled(earlier)
    const [application] = await first.database.db
      .select()
      .from(applications)
      .where(eq(applications.id, id))
    const [box] = await first.database.db
      .select()
      .from(devboxes)
      .where(eq(devboxes.applicationId, id))
    if (!application || !box) throw new Error('no application recorded')

    // 29 more applications whose workspaces are copies of the first (made in seconds, not minutes).
    const workspaces = path.join(config.dataDir, 'devboxes', 'workspaces')
    const others: string[] = []
    const usedIndex = 8
    for (let index = 1; index < 30; index++) {
      const applicationId = randomUUID()
      const boxId = randomUUID()
      // Only the one that will be used needs its dependencies; the others are never opened.
      const source = path.join(workspaces, box.id)
      await cp(source, path.join(workspaces, boxId), {
        recursive: true,
        verbatimSymlinks: true,
        filter: (entry) => index === usedIndex || !entry.startsWith(`${source}/node_modules`),
      })
      await first.database.db.insert(applications).values({
        ...application,
        id: applicationId,
        slug: `${application.slug}-${index}`,
      })
      await first.database.db.insert(devboxes).values({ ...box, id: boxId, applicationId })
      others.push(applicationId)
    }
    await first.stop()

    const startedAt = Date.now()
    const second = await startServer(config, { serveWeb: false })
    cleanups.push(second.stop)
    const startMs = Date.now() - startedAt
    const secondBase = `http://127.0.0.1:${second.port}`
    // Start did not wait for any dev server: nothing is open yet, and the server answers.
    expect([id, ...others].filter(second.devboxes.isOpen)).toEqual([])
    expect((await call(secondBase, '/healthz')).status).toBe(200)
    console.log(`start with 30 workspaces: ${startMs} ms`)

    // The first continue and a new message right after the restart wait for their boxes.
    const signIn = await call(secondBase, '/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: 'many@example.com', password: 'correct-horse-battery' }),
    })
    const secondAuth = { authorization: `Bearer ${signIn.headers.get('set-auth-token') ?? ''}` }
    const finished = async (conversationId: string, runId: string) => {
      await second.created.conversations.runs.settled(conversationId)
      const [run] = await second.database.db.select().from(runs).where(eq(runs.id, runId))
      return `${run?.status} ${run?.error ?? ''}`.trim()
    }
    const continued = await call(
      secondBase,
      `/api/demo/applications/${id}/continue?conversation_id=${earlier}`,
      { method: 'POST', headers: secondAuth, body: JSON.stringify({ model: 'demo' }) },
    )
    expect(continued.status, await continued.clone().text()).toBe(200)
    const { run_id: continuedRun } = (await continued.json()) as { run_id: string }
    expect(await finished(earlier, continuedRun)).toBe('finished')

    const target = others[usedIndex - 1] ?? ''
    const sent = await call(secondBase, `/api/demo/applications/${target}/message`, {
      method: 'POST',
      headers: secondAuth,
      body: JSON.stringify({
        message: 'Hello after the restart',
        model: 'demo',
        client_id: randomUUID(),
      }),
    })
    expect(sent.status, await sent.clone().text()).toBe(200)
    const sentBody = (await sent.json()) as { conversation_id: string; run_id: string }
    expect(await finished(sentBody.conversation_id, sentBody.run_id)).toBe('finished')
    // Only the boxes that were used were opened.
    expect([id, ...others].filter(second.devboxes.isOpen)).toEqual([id, target])
  })
})
