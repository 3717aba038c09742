// Vault set → the preview's /api route sees the new value (docs/product/vault.md "Where values
// go"): the dev server restarts with the app's secrets; timed from the POST to the first answer
// through the preview proxy that carries the new value.
import { createHash } from 'node:crypto'
import { vaultCheckRoute } from '../apps/server/src/testing/vault-check-route.ts'
import { createAndWait, get, previewCookie, signUp, withBenchServer } from './lib/product-server.ts'
import { milliseconds, p50AndP95 } from './lib/stats.ts'

const checkRoute = vaultCheckRoute('BENCH_KEY')

const rounds = 20

export async function benchVaultPreview(): Promise<Record<string, string>> {
  return withBenchServer('vault', 0, async (bench) => {
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
      [`vault set → preview /api sees the value, p50 / p95 (n = ${rounds})`]: `${p50AndP95(times)} (max ${milliseconds(Math.max(...times))})`,
    }
  })
}
