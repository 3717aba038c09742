// Vault set → the preview's /api route sees the new value (docs/product/vault.md "Where values
// go"): the dev server restarts with the app's secrets; timed from the POST to the first answer
// through the preview proxy that carries the new value.
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  createAndWait,
  get,
  previewCookie,
  signUp,
  startBenchServer,
} from './lib/product-server.ts'
import { milliseconds, quantile } from './lib/stats.ts'

const checkRoute = `import { createHash } from 'node:crypto'
import { Hono } from 'hono'

export const app = new Hono().basePath('/api')
app.get('/health', (c) => c.json({ ok: true }))
app.get('/vault-check', (c) => {
  const value = process.env.BENCH_KEY
  return c.json({ hash: value ? createHash('sha256').update(value).digest('hex') : null })
})
export default app
`

const rounds = 20

export async function benchVaultPreview(): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-vault-'))
  const bench = await startBenchServer(dataDir, 0)
  try {
    const token = await signUp(bench, `vault-${Date.now()}@example.com`)
    const application = await createAndWait(bench, token)
    const cookie = await previewCookie(
      bench,
      token,
      application.previewUrl,
      application.previewHost,
    )
    await bench.server.devboxes.box(application.id)?.files.write('server/app.ts', checkRoute)
    const seenHash = async () => {
      const answer = await get(bench.port, application.previewHost, '/api/vault-check', { cookie })
      if (answer.status !== 200) return undefined
      try {
        return (JSON.parse(answer.body) as { hash: string | null }).hash
      } catch {
        return undefined
      }
    }
    const waitFor = async (expected: string | null) => {
      const deadline = Date.now() + 60_000
      while (Date.now() < deadline) {
        if ((await seenHash()) === expected) return
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      throw new Error('the preview never saw the value')
    }
    await waitFor(null)
    const times: number[] = []
    for (let round = 0; round < rounds; round++) {
      const value = `bench-value-${round}-${Date.now()}`
      const started = performance.now()
      const set = await bench.call(`/api/applications/${application.id}/vault`, {
        method: 'POST',
        token,
        body: JSON.stringify({ key: 'BENCH_KEY', value }),
      })
      if (set.status !== 200) throw new Error(`set failed: ${await set.text()}`)
      await waitFor(createHash('sha256').update(value).digest('hex'))
      times.push(performance.now() - started)
    }
    return {
      [`vault set → preview /api sees the value, p50 / p95 (n = ${rounds})`]: `${milliseconds(quantile(times, 0.5))} / ${milliseconds(quantile(times, 0.95))} (max ${milliseconds(Math.max(...times))})`,
    }
  } finally {
    await bench.server.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}
