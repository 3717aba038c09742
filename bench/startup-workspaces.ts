// `npm start` to healthy with 30 workspaces recorded (one real app and 29 copies of its
// workspace), and how long the first request for one app's editor takes to find it ready.
import { randomUUID } from 'node:crypto'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { openDatabase } from '../packages/db/src/database.ts'
import { applications } from '../packages/db/src/schema/applications.ts'
import { devboxes } from '../packages/db/src/schema/devboxes.ts'
import { apiCaller } from './lib/api-caller.ts'
import { startServerProcess } from './lib/server-process.ts'

const port = 3902
const workspacesCount = 30

const call = apiCaller(port)

async function waitUntilEditorReady(id: string, token: string): Promise<number> {
  const started = performance.now()
  for (let attempt = 0; attempt < 600; attempt++) {
    const response = await call(`/api/applications/${id}/editor-ready`, { token })
    if (((await response.json()) as { ready?: boolean }).ready) return performance.now() - started
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('the editor never became ready')
}

export async function benchStartupWorkspaces(): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-workspaces-'))
  const environment = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SPROUT_SKIP_BUILD: '1',
    DEVBOX_POOL_TARGET: '0',
    DEVBOX_CACHE_DIR: path.join(os.tmpdir(), 'sprout-devbox-test-cache'),
  }
  try {
    const first = await startServerProcess({ entry: 'scripts/start.ts', environment, port })
    const signUp = await call('/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email: 'bench@example.com',
        password: 'correct-horse-battery',
        name: 'b',
      }),
    })
    const token = signUp.headers.get('set-auth-token') ?? ''
    const created = await call('/api/applications', {
      method: 'POST',
      token,
      body: JSON.stringify({ initial_prompt: 'one of many', model: 'demo' }),
    })
    const { id } = (await created.json()) as { id: string }
    await waitUntilEditorReady(id, token)
    await first.stop()

    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') })
    const [application] = await database.db.select().from(applications)
    const [box] = await database.db.select().from(devboxes)
    if (!application || !box) throw new Error('no application recorded')
    const workspaces = path.join(dataDir, 'devboxes', 'workspaces')
    const ids = [id]
    for (let index = 1; index < workspacesCount; index++) {
      const applicationId = randomUUID()
      const boxId = randomUUID()
      await cp(path.join(workspaces, box.id), path.join(workspaces, boxId), {
        recursive: true,
        verbatimSymlinks: true,
      })
      await database.db
        .insert(applications)
        .values({ ...application, id: applicationId, slug: `${application.slug}-${index}` })
      await database.db.insert(devboxes).values({ ...box, id: boxId, applicationId })
      ids.push(applicationId)
    }
    await database.close()

    const startTimes: number[] = []
    const firstUseTimes: number[] = []
    for (let run = 0; run < 3; run++) {
      const server = await startServerProcess({ entry: 'scripts/start.ts', environment, port })
      startTimes.push(server.readyMs)
      const signIn = await call('/api/auth/sign-in/email', {
        method: 'POST',
        body: JSON.stringify({ email: 'bench@example.com', password: 'correct-horse-battery' }),
      })
      const again = signIn.headers.get('set-auth-token') ?? ''
      firstUseTimes.push(await waitUntilEditorReady(ids[run * 7 + 3] ?? id, again))
      await server.stop()
    }
    startTimes.sort((a, b) => a - b)
    firstUseTimes.sort((a, b) => a - b)
    return {
      [`start to healthy with ${workspacesCount} workspaces (median of 3)`]: `${Math.round(startTimes[1] ?? 0)} ms (${startTimes.map(Math.round).join(' / ')})`,
      'first use of one app after that: editor-ready (median of 3)': `${Math.round(firstUseTimes[1] ?? 0)} ms`,
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}
