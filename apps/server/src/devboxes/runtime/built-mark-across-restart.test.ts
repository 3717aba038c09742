// A box's "never built" mark across a restart (issue 29, docs/architecture/devbox.md "Starts at
// once"): `built_at` in its row, not the process's memory, says whether a failed box is
// provisioned anew or opened with its workspace kept.
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from '../../config/config.ts'
import { startServer } from '../../start-server.ts'
import { testDatabaseKind } from '../../testing/database.ts'
import { requestServer, serverEnvironment, signUpOverHttp } from '../../testing/server-process.ts'

type Server = Awaited<ReturnType<typeof startServer>>
type Readiness = { ready: boolean; error?: string }

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

describe(`a box's built mark across a restart (${testDatabaseKind})`, () => {
  it('provisions anew a failed box that was never built, and opens a built one with its files', {
    timeout: 420_000,
  }, async () => {
    const config = parseConfig(await serverEnvironment(cleanups, 'sprout-built-mark-'))
    const first = await startServer(config, { serveWeb: false })
    let token = ''
    const auth = () => ({ authorization: `Bearer ${token}` })
    const readiness = async (server: Server, id: string) => {
      const response = await requestServer(
        `http://127.0.0.1:${server.port}`,
        `/api/applications/${id}/editor-ready`,
        { headers: auth() },
      )
      return (await response.json()) as Readiness
    }
    const untilReady = (server: Server, id: string) =>
      waitFor(async () => (await readiness(server, id)).ready, `${id} to be ready`)
    const rowOf = async (server: Server, id: string) => {
      const [row] = await server.database.db
        .select()
        .from(devboxes)
        .where(eq(devboxes.applicationId, id))
      if (!row) throw new Error(`no box recorded for ${id}`)
      return row
    }

    token = await signUpOverHttp(`http://127.0.0.1:${first.port}`, {
      email: 'built@example.com',
      name: 'b',
    })
    const create = async (prompt: string) => {
      const created = await requestServer(`http://127.0.0.1:${first.port}`, '/api/applications', {
        method: 'POST',
        headers: auth(),
        body: JSON.stringify({ initial_prompt: prompt, model: 'demo' }),
      })
      return ((await created.json()) as { id: string }).id
    }
    const built = await create('built before the restart')
    const neverBuilt = await create('never built')
    for (const id of [built, neverBuilt]) await untilReady(first, id)
    // Provisioned cold (no pool here): marked built when they first became ready.
    expect((await rowOf(first, built)).builtAt).toBeInstanceOf(Date)
    expect((await rowOf(first, neverBuilt)).builtAt).toBeInstanceOf(Date)

    await first.devboxes.box(built)?.files.write('src/kept.txt', 'still here')
    // What a cold provision cut short leaves behind, in a row that says it never got built.
    await first.devboxes.box(neverBuilt)?.files.write('src/partial.txt', 'half made')
    const failure = { status: 'failed', error: 'The dev server did not start' }
    await first.database.db
      .update(devboxes)
      .set({ ...failure, builtAt: null })
      .where(eq(devboxes.applicationId, neverBuilt))
    // A built box whose opening failed: its workspace has the app's code.
    await first.database.db.update(devboxes).set(failure).where(eq(devboxes.applicationId, built))
    await first.stop()

    const second = await startServer(config, { serveWeb: false })
    cleanups.push(second.stop)
    // Failed before the restart: the builder's first ask starts each again.
    for (const id of [built, neverBuilt]) {
      const answer = await readiness(second, id)
      expect(answer.error).toBeUndefined()
    }
    for (const id of [built, neverBuilt]) await untilReady(second, id)
    expect(await second.devboxes.box(built)?.files.read('src/kept.txt')).toBe('still here')
    // Provisioned from the starter again, not opened on what was left.
    await expect(second.devboxes.box(neverBuilt)?.files.read('src/partial.txt')).rejects.toThrow()
    expect(await second.devboxes.box(neverBuilt)?.files.read('package.json')).toContain('"dev"')
    expect((await rowOf(second, neverBuilt)).builtAt).toBeInstanceOf(Date)
    expect((await rowOf(second, built)).status).toBe('ready')
  })
})
