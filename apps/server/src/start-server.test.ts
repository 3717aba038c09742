import { randomUUID } from 'node:crypto'
import { cp, mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { openDatabase } from '@sprout/db/database.ts'
import { migrateDatabase } from '@sprout/db/migrate.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import { removeWithMounts } from '@sprout/devbox/drivers/local/box-disk.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from './config/config.ts'
import { startServer } from './start-server.ts'
import { testDevboxCacheDir } from './testing/test-app.ts'
import { createPostgresDatabase, testDatabaseKind } from './testing/test-database.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function environmentForThisDatabase() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-restart-'))
  cleanups.push(() => removeWithMounts(dataDir))
  const environment: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DEVBOX_POOL_TARGET: '0',
    DEVBOX_CACHE_DIR: testDevboxCacheDir,
  }
  if (testDatabaseKind === 'postgres') {
    const database = await createPostgresDatabase()
    cleanups.push(database.drop)
    environment.DATABASE_URL = database.url
  }
  return environment
}

async function call(base: string, pathname: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  headers.set('origin', 'http://localhost:3000')
  if (init.body) headers.set('content-type', 'application/json')
  return fetch(`${base}${pathname}`, { ...init, headers })
}

describe(`restart safety (${testDatabaseKind})`, () => {
  it('keeps users, organizations and memberships across a restart', async () => {
    const environment = await environmentForThisDatabase()
    const config = parseConfig(environment)

    const first = await startServer(config, { serveWeb: false })
    const base = `http://127.0.0.1:${first.port}`
    const signUp = await call(base, '/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email: 'keep@example.com',
        password: 'correct-horse-battery',
        name: 'k',
      }),
    })
    expect(signUp.status).toBe(200)
    const token = signUp.headers.get('set-auth-token') ?? ''
    const created = await call(base, '/api/auth/organization/create', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Kept', slug: 'kept' }),
    })
    const organizationId = ((await created.json()) as { id: string }).id
    await first.stop()

    const second = await startServer(config, { serveWeb: false })
    cleanups.push(second.stop)
    const secondBase = `http://127.0.0.1:${second.port}`
    const signIn = await call(secondBase, '/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: 'keep@example.com', password: 'correct-horse-battery' }),
    })
    expect(signIn.status).toBe(200)
    const newToken = signIn.headers.get('set-auth-token') ?? ''
    // The session issued before the restart is still valid: the signing secret was kept too.
    for (const bearer of [token, newToken]) {
      const lookup = await call(secondBase, `/api/organizations?clerk_id=${organizationId}`, {
        headers: { authorization: `Bearer ${bearer}` },
      })
      expect(lookup.status).toBe(200)
      expect(await lookup.json()).toEqual({ id: organizationId })
    }
  })

  it('applies migrations idempotently', async () => {
    const environment = await environmentForThisDatabase()
    const database = await openDatabase(
      environment.DATABASE_URL
        ? { kind: 'postgres', url: environment.DATABASE_URL }
        : { kind: 'pglite', dataDir: path.join(environment.DATA_DIR ?? '', 'pglite') },
    )
    cleanups.push(database.close)
    await migrateDatabase(database)
    const countMigrations = async () =>
      (await database.execute('select count(*)::int as total from drizzle.__drizzle_migrations'))
        .rows[0]
    const once = await countMigrations()
    await Promise.all([migrateDatabase(database), migrateDatabase(database)])
    expect(await countMigrations()).toEqual(once)
  })
})

describe(`dev boxes across a restart (${testDatabaseKind})`, () => {
  it("brings every app's box back with its workspace intact and its dev server running", {
    timeout: 120_000,
  }, async () => {
    const config = parseConfig(await environmentForThisDatabase())
    const first = await startServer(config, { serveWeb: false })
    const base = `http://127.0.0.1:${first.port}`
    const signUp = await call(base, '/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email: 'boxes@example.com',
        password: 'correct-horse-battery',
        name: 'b',
      }),
    })
    const token = signUp.headers.get('set-auth-token') ?? ''
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
    const signUp = await call(base, '/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email: 'many@example.com',
        password: 'correct-horse-battery',
        name: 'm',
      }),
    })
    const auth = { authorization: `Bearer ${signUp.headers.get('set-auth-token') ?? ''}` }
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
