// The fullstack starter (decision 014) through the whole product: create → editor-ready with a
// warm pool, create → the preview's /api/health answered, cold provisioning, a server file
// written → the next /api request through the preview sees it, and its production server's RSS.
import { type ChildProcess, spawn } from 'node:child_process'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { requestDevServer } from '../packages/devbox/src/dev-server-request.ts'
import type { Devbox } from '../packages/devbox/src/devbox-driver.ts'
import { findFreePort } from '../packages/devbox/src/drivers/local/processes/free-port.ts'
import { type BenchOptions, type BenchResult, fullRun, type Metric, metric } from './lib/metrics.ts'
import {
  type BenchServer,
  get,
  medianColdProvisioning,
  previewCookie,
  signUp,
  withBenchServer,
} from './lib/product-server.ts'
import { residentMemoryMiB } from './lib/server-process.ts'
import { milliseconds, p50AndP95, quantile } from './lib/stats.ts'
import { createFromWarmPool } from './lib/warm-creations.ts'

const edits = 20

/** Asks the preview for /api/health until it answers 200; returns when it did. */
async function apiAnswered(bench: BenchServer, host: string, cookie: string, marker = '"ok"') {
  for (let attempt = 0; attempt < 600; attempt++) {
    // The dev server may drop a connection while it starts or restarts: ask again.
    const answer = await get(bench.port, host, '/api/health', { cookie }).catch(() => undefined)
    if (answer?.status === 200 && answer.body.includes(marker)) return performance.now()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`the preview's /api/health never answered with ${marker}`)
}

async function productionServerRss(box: Devbox): Promise<number> {
  const built = await box.exec('npm run build', { timeoutSeconds: 180 })
  if (built.exitCode !== 0) throw new Error(`build failed:\n${built.output}`)
  const directory = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-starter-prod-'))
  let server: ChildProcess | undefined
  try {
    await cp(path.join(box.workspacePath, 'dist'), directory, { recursive: true })
    const port = await findFreePort()
    server = spawn(process.execPath, ['server/index.js'], {
      cwd: directory,
      env: { PORT: String(port), DATABASE_URL: `file:${directory}/data/app.db` },
      stdio: 'ignore',
    })
    const target = { host: '127.0.0.1', port }
    for (let attempt = 0; ; attempt++) {
      const answer = await requestDevServer(target, '/api/health').catch(() => undefined)
      if (answer?.status === 200) break
      if (attempt > 300) throw new Error('the production server never answered')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await new Promise((resolve) => setTimeout(resolve, 2000))
    return residentMemoryMiB(server.pid ?? 0)
  } finally {
    server?.kill()
    await rm(directory, { recursive: true, force: true })
  }
}

/** Quick (`--compare`): the creations only; the devbox benchmark covers cold provisioning. */
export async function benchFullstackStarter(options: BenchOptions = fullRun): Promise<BenchResult> {
  const creations = options.quick ? 8 : Number(process.env.BENCH_CREATIONS ?? 10)
  const figures: Record<string, string> = {}
  const metrics: Metric[] = []
  await withBenchServer('starter', 1, async (warm) => {
    const token = await signUp(warm, 'starter@example.com')
    const apiTimes: number[] = []
    const handOffTimes: number[] = []
    const firstApiTimes: number[] = []
    const { readyTimes, kept } = await createFromWarmPool(
      warm,
      token,
      creations,
      async (created) => {
        const handOffStarted = performance.now()
        const cookie = await previewCookie(warm, token, created.previewUrl, created.previewHost)
        const requested = performance.now()
        const answered = await apiAnswered(warm, created.previewHost, cookie)
        apiTimes.push(answered - created.started)
        handOffTimes.push(requested - handOffStarted)
        firstApiTimes.push(answered - requested)
      },
    )
    figures[`create → editor-ready, warm pool (p50 / p95, n=${creations})`] = p50AndP95(readyTimes)
    figures['create → preview /api/health answered (p50 / p95)'] = p50AndP95(apiTimes)
    figures['  of which the preview hand-off (token + cookie), p50 / p95'] = p50AndP95(handOffTimes)
    figures['  of which /api/health through the proxy until 200, p50 / p95'] =
      p50AndP95(firstApiTimes)
    metrics.push(
      metric(
        'create → preview /api/health answered, p95',
        quantile(apiTimes, 0.95),
        'ms',
        'lower',
        `n=${creations}`,
      ),
    )
    if (options.quick) return

    const box = warm.server.devboxes.box(kept.id)
    if (!box) throw new Error('the kept application has no box')
    const cookie = await previewCookie(warm, token, kept.previewUrl, kept.previewHost)
    const source = await box.files.read('server/app.ts')
    const seenTimes: number[] = []
    let firstRequestSawIt = 0
    for (let round = 0; round < edits; round++) {
      const marker = `"round":${round}`
      const written = performance.now()
      await box.files.write(
        'server/app.ts',
        source.replace('c.json({ ok: true })', `c.json({ ok: true, round: ${round} })`),
      )
      const first = await get(warm.port, kept.previewHost, '/api/health', { cookie })
      if (first.body.includes(marker)) {
        firstRequestSawIt++
        seenTimes.push(performance.now() - written)
      } else {
        seenTimes.push((await apiAnswered(warm, kept.previewHost, cookie, marker)) - written)
      }
    }
    figures[`server file written → next /api request sees it (p50 / p95, n=${edits})`] =
      `${p50AndP95(seenTimes)} (the first request saw it ${firstRequestSawIt} of ${edits} times)`
    await box.files.write('server/app.ts', source)
    figures['production server of the starter (node dist/server/index.js), idle RSS'] =
      `${(await productionServerRss(box)).toFixed(0)} MiB`
  })
  if (options.quick) return { figures, metrics }

  figures['cold provisioning, empty pool, warm npm cache (median of 3)'] = milliseconds(
    await medianColdProvisioning(),
  )
  return { figures, metrics }
}
