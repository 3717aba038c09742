import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestDevServer } from '../../dev-server-request.ts'
import type { DevServerTarget } from '../../devbox-driver.ts'
import { createTestDriver, waitFor } from '../../testing/devbox-support.ts'
import type { LocalDevbox, LocalDriver } from './local-driver.ts'
import { findFreePort } from './processes/free-port.ts'

/** A JSON request to the box's dev server (or any server), as the preview would send it. */
async function callApi(target: DevServerTarget | undefined, pathname: string, body?: unknown) {
  const response = await requestDevServer(target, pathname, {
    timeoutMs: 10_000,
    ...(body === undefined
      ? {}
      : {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        }),
  })
  return { status: response.status, body: response.body }
}

/** The rows of a query, read inside the box with the app's own DATABASE_URL. */
async function queryInBox(box: LocalDevbox, sql: string): Promise<unknown[]> {
  const script = [
    "import { DatabaseSync } from 'node:sqlite'",
    "const db = new DatabaseSync(process.env.DATABASE_URL.replace(/^file:/, ''))",
    `console.log(JSON.stringify(db.prepare(${JSON.stringify(sql)}).all()))`,
  ].join('\n')
  const result = await box.exec(`node --input-type=module -e ${shellQuote(script)}`, {
    timeoutSeconds: 20,
  })
  if (result.exitCode !== 0) throw new Error(result.output)
  return JSON.parse(result.output.trim())
}

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`

describe('the fullstack starter in a dev box', () => {
  let rootDir: string
  let driver: LocalDriver
  let box: LocalDevbox

  beforeAll(async () => {
    rootDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-fullstack-'))
    driver = createTestDriver({ rootDir })
    box = await driver.provision('fullstack')
  }, 120_000)

  afterAll(async () => {
    await driver.shutdown()
    await rm(rootDir, { recursive: true, force: true })
  })

  it('serves the API and the client from one dev server', async () => {
    const target = box.devServer.target()
    expect(await callApi(target, '/api/health')).toEqual({ status: 200, body: '{"ok":true}' })
    const page = await requestDevServer(target, '/', {
      headers: { host: 'my-app.preview.localhost:3000', accept: 'text/html' },
    })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>My Sprout App</title>')
    expect(page.body).toContain('<div id="root"></div>')
    expect((await requestDevServer(target, '/src/App.tsx')).body).toContain('Your app starts here.')
    const unknown = await callApi(target, '/api/nothing-here')
    expect(unknown.status).toBe(404)
  })

  it("validates input and keeps rows in the box's data folder, not in the workspace", async () => {
    const target = box.devServer.target()
    expect((await callApi(target, '/api/notes', { text: '' })).status).toBe(400)
    const created = await callApi(target, '/api/notes', { text: 'first note' })
    expect(created.status).toBe(201)
    expect(JSON.parse(created.body).note).toMatchObject({ id: 1, text: 'first note' })

    expect(box.dataPath).toBeDefined()
    expect(existsSync(path.join(box.dataPath ?? '', 'app.db'))).toBe(true)
    expect(box.dataPath?.startsWith(box.workspacePath)).toBe(false)
    expect(existsSync(path.join(box.workspacePath, '.data'))).toBe(false)
    const status = await box.exec('git status --porcelain', { timeoutSeconds: 10 })
    expect(status.output).toBe('')
    expect(await queryInBox(box, 'SELECT text FROM notes')).toEqual([{ text: 'first note' }])
    expect(await queryInBox(box, 'SELECT name FROM _migrations')).toEqual([
      { name: '001_create_notes.sql' },
    ])
  })

  it('keeps the rows when the dev server stops and starts again', async () => {
    await box.devServer.stop()
    await box.devServer.start()
    const listed = await callApi(box.devServer.target(), '/api/notes')
    expect(listed.status).toBe(200)
    expect(JSON.parse(listed.body).notes).toEqual([expect.objectContaining({ text: 'first note' })])
  }, 60_000)

  it('applies a new migration file on the next request', async () => {
    await box.files.write(
      'server/migrations/002_create_tags.sql',
      'CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n',
    )
    expect((await callApi(box.devServer.target(), '/api/health')).status).toBe(200)
    expect(await queryInBox(box, 'SELECT name FROM _migrations ORDER BY name')).toEqual([
      { name: '001_create_notes.sql' },
      { name: '002_create_tags.sql' },
    ])
    expect(await queryInBox(box, 'SELECT count(*) AS notes FROM notes')).toEqual([{ notes: 1 }])

    // A script run with plain Node (no Vite) can use server/db.ts too.
    const script = `const { db } = await import('./server/db.ts')
      console.log(JSON.stringify(db.prepare('SELECT count(*) AS notes FROM notes').get()))`
    const result = await box.exec(`node --input-type=module -e ${shellQuote(script)}`, {
      timeoutSeconds: 20,
    })
    expect(result.output.trim()).toBe('{"notes":1}')
  })

  it('uses an edited server file on the next request without restarting the dev server', async () => {
    const groupId = box.devServer.processGroupId()
    const source = await box.files.read('server/app.ts')
    const health = (text: string) =>
      source.replace('c.json({ ok: true })', `c.json({ ok: true, edited: '${text}' })`)
    expect(health('first')).not.toBe(source)
    for (const text of ['first', 'second', 'third']) {
      // Back to back on purpose: the file watcher drops a change within 50 ms of another one.
      await box.files.write('server/app.ts', health(text))
      const answer = await callApi(box.devServer.target(), '/api/health')
      expect(answer.body).toBe(`{"ok":true,"edited":"${text}"}`)
    }
    expect(box.devServer.processGroupId()).toBe(groupId)
    expect(box.devServer.restarts()).toBe(0)
  })

  it('serves the latest client file after two writes in a row', async () => {
    const target = box.devServer.target()
    const version = (text: string) => `export function App() {\n  return <p>${text}</p>\n}\n`
    await box.files.write('src/App.tsx', version('First version'))
    await waitFor(async () =>
      (await requestDevServer(target, '/src/App.tsx')).body.includes('First'),
    )
    // The preview loads the first version between the two writes, as an open page does on HMR.
    await box.files.write('src/App.tsx', version('Second version'))
    await waitFor(async () =>
      (await requestDevServer(target, '/src/App.tsx')).body.includes('Second'),
    )
  })

  it('answers 500 for a route that throws, logs the error and keeps running', async () => {
    const groupId = box.devServer.processGroupId()
    const source = await box.files.read('server/app.ts')
    await box.files.write(
      'server/app.ts',
      `${source}\napp.get('/broken', () => {\n  throw new Error('Broken on purpose')\n})\n`,
    )
    await waitFor(async () => (await callApi(box.devServer.target(), '/api/broken')).status === 500)
    await waitFor(() => box.devServer.logs().includes('Broken on purpose'))

    await box.files.write('server/app.ts', `${source}\nthis is not TypeScript (\n`)
    await waitFor(async () => (await callApi(box.devServer.target(), '/api/health')).status === 500)
    expect((await requestDevServer(box.devServer.target(), '/')).status).toBe(200)

    await box.files.write('server/app.ts', source)
    await waitFor(async () => (await callApi(box.devServer.target(), '/api/health')).status === 200)
    expect(box.devServer.status()).toBe('running')
    expect(box.devServer.processGroupId()).toBe(groupId)
  })

  it('builds a client and a server that runs without node_modules', async () => {
    const built = await box.exec('npm run build', { timeoutSeconds: 120 })
    expect(built.exitCode, built.output).toBe(0)
    expect(existsSync(path.join(box.workspacePath, 'dist/client/index.html'))).toBe(true)
    expect(existsSync(path.join(box.workspacePath, 'dist/server/index.js'))).toBe(true)

    const deployDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-fullstack-deploy-'))
    let server: ChildProcess | undefined
    try {
      await cp(path.join(box.workspacePath, 'dist'), deployDir, { recursive: true })
      const port = await findFreePort()
      server = spawn(process.execPath, [path.join(deployDir, 'server/index.js')], {
        cwd: deployDir,
        env: {
          PATH: process.env.PATH ?? '',
          PORT: String(port),
          DATABASE_URL: `file:${path.join(deployDir, 'data/app.db')}`,
        },
        stdio: 'ignore',
      })
      const target = { host: '127.0.0.1', port }
      await waitFor(async () => {
        const answer = await callApi(target, '/api/health').catch(() => undefined)
        return answer?.status === 200
      })
      expect((await callApi(target, '/api/notes', { text: 'in production' })).status).toBe(201)
      expect(existsSync(path.join(deployDir, 'data/app.db'))).toBe(true)
    } finally {
      server?.kill()
      await rm(deployDir, { recursive: true, force: true })
    }
  }, 150_000)
})
