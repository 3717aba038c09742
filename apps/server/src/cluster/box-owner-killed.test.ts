// The owner of a box killed (SIGKILL, its dev server with it, as when its machine dies): another
// instance serves the preview once the lease expires (docs/decisions/033-box-leases-and-relay.md).
import { afterAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/config.ts'
import { startServer } from '../start-server.ts'
import {
  clusterEnvironments,
  previewCookieThrough,
  until,
} from '../testing/cluster-environments.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { type InstanceProcess, startInstanceProcess } from '../testing/instance-process.ts'
import { rawRequest } from '../testing/raw-request.ts'
import { requestServer, signUpOverHttp } from '../testing/server-process.ts'

const cleanups: (() => Promise<void>)[] = []

describe.skipIf(testDatabaseKind !== 'postgres')('the owner of a box killed', () => {
  let a: InstanceProcess | undefined
  afterAll(async () => {
    a?.kill()
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it('B serves the preview once the lease of the killed A expired', {
    timeout: 240_000,
  }, async () => {
    const {
      environments: [environmentA = {}, environmentB = {}],
    } = await clusterEnvironments(cleanups, {
      name: 'killed',
      publicPort: 29110,
      instances: 2,
    })
    a = await startInstanceProcess(environmentA)
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
    const { host, cookie } = await previewCookieThrough(baseB, b.port, id, auth)
    const preview = () => rawRequest(b.port, host, '/', { cookie, accept: 'text/html' })
    expect((await preview()).status).toBe(200)
    expect(b.devboxes.isOpen(id)).toBe(false)

    a.kill()
    // While A's lease lasts: a page that reloads itself, not an error page.
    const meanwhile = await preview()
    expect(meanwhile.status).toBe(503)
    expect(meanwhile.body).toContain('http-equiv="refresh"')
    await until(
      async () => {
        const page = await preview()
        return page.status === 200 && page.body.includes('<div id="root">')
      },
      // The lease lasts 20 s after A's last renewal (0–3 s before the kill), then B opens the box.
      45_000,
      "the preview through B after A's death",
    )
    expect(b.devboxes.isOpen(id)).toBe(true)
  })
})
