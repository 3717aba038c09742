// The owner of a box killed (SIGKILL, its dev server with it, as when its machine dies): another
// instance serves the preview once the lease expires (docs/decisions/033-box-leases-and-relay.md).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { removeWithMounts } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { afterAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/config.ts'
import { PREVIEW_COOKIE } from '../devboxes/hand-off/preview-session.ts'
import { startServer } from '../start-server.ts'
import { cookieFrom, rawRequest } from '../testing/app-harness.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { requestServer, serverEnvironment, signUpOverHttp } from '../testing/server-process.ts'

const cleanups: (() => Promise<void>)[] = []

const childScript = `
import { parseConfig } from ${JSON.stringify(path.join(import.meta.dirname, '../config/config.ts'))}
import { startServer } from ${JSON.stringify(path.join(import.meta.dirname, '../start-server.ts'))}
await startServer(parseConfig(process.env), { serveWeb: false })
console.log('listening')
`

/** Every process below `pid`, read from /proc before it dies (its children are reparented then). */
function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)])
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = []
  const visit = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child)
      visit(child)
    }
  }
  visit(pid)
  return found
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe.skipIf(testDatabaseKind !== 'postgres')('the owner of a box killed', () => {
  let child: ChildProcess | undefined
  const killAll = () => {
    if (!child?.pid || child.exitCode !== null) return
    for (const pid of [child.pid, ...descendantsOf(child.pid)]) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  }
  afterAll(async () => {
    killAll()
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it('B serves the preview once the lease of the killed A expired', {
    timeout: 240_000,
  }, async () => {
    const sharedDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-shared-'))
    cleanups.push(() => removeWithMounts(sharedDir))
    const shared = {
      SHARED_DIR: sharedDir,
      VAULT_KEY: randomBytes(32).toString('base64'),
      AUTH_SECRET: 'cluster-kill-secret-cluster-kill-secret-01',
      // Fixed ports below Linux's ephemeral range (32768–60999), which port-0 listeners draw from.
      PUBLIC_URL: 'http://localhost:29110',
      // Boxes as plain folders: the sandbox's and disk images' state is per machine (decision 033).
      DEVBOX_SANDBOX: 'off',
      DEVBOX_DISK: 'measured',
    }
    const environmentA = await serverEnvironment(cleanups, 'sprout-killed-a-', {
      ...shared,
      PORT: '29111',
    })
    const environmentB = {
      ...(await serverEnvironment(cleanups, 'sprout-killed-b-', { ...shared, PORT: '29112' })),
      DATABASE_URL: environmentA.DATABASE_URL ?? '',
    }
    child = spawn(process.execPath, ['--input-type=module', '-e', childScript], {
      env: { ...process.env, ...environmentA },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const output = child.stdout
    await new Promise<void>((resolve, reject) => {
      output?.on('data', (data: Buffer) => {
        if (data.toString().includes('listening')) resolve()
      })
      child?.once('exit', (code) => reject(new Error(`A exited with ${code}`)))
    })
    const b = await startServer(parseConfig(environmentB), { serveWeb: false })
    cleanups.push(b.stop)
    const baseA = 'http://127.0.0.1:29111'
    const token = await signUpOverHttp(baseA, { email: 'killed@example.com', name: 'k' })
    const auth = { authorization: `Bearer ${token}` }
    const created = await requestServer(baseA, '/api/applications', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ initial_prompt: 'a box on A', model: 'demo' }),
    })
    const { id } = (await created.json()) as { id: string }
    const baseB = `http://127.0.0.1:${b.port}`
    await until(
      async () => {
        const ready = await requestServer(baseB, `/api/applications/${id}/editor-ready`, {
          headers: auth,
        })
        return ((await ready.json()) as { ready: boolean }).ready
      },
      120_000,
      'the box, asked through B',
    )
    const details = await requestServer(baseB, `/api/applications/${id}`, { headers: auth })
    const { preview_url: previewUrl } = (await details.json()) as { preview_url: string }
    const issued = await requestServer(baseB, '/api/org/devbox-token', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ devbox_url: previewUrl }),
    })
    const { token: previewToken } = (await issued.json()) as { token: string }
    const host = new URL(previewUrl).host
    const exchanged = await rawRequest(
      b.port,
      host,
      `/__sprout/auth/callback?token=${encodeURIComponent(previewToken)}&return=%2F`,
    )
    const cookie = cookieFrom(exchanged, PREVIEW_COOKIE) ?? ''
    const preview = () => rawRequest(b.port, host, '/', { cookie, accept: 'text/html' })
    expect((await preview()).status).toBe(200)
    expect(b.devboxes.isOpen(id)).toBe(false)

    killAll()
    // While A's lease lasts: a page that reloads itself, not an error page.
    const meanwhile = await preview()
    expect(meanwhile.status).toBe(503)
    expect(meanwhile.body).toContain('http-equiv="refresh"')
    await until(
      async () => {
        const page = await preview()
        return page.status === 200 && page.body.includes('<div id="root">')
      },
      // The lease lasts 30 s after A's last renewal (0–5 s before the kill), then B opens the box.
      45_000,
      "the preview through B after A's death",
    )
    expect(b.devboxes.isOpen(id)).toBe(true)
  })
})
