// Dev boxes: create → editor-ready (warm pool), create → first preview HTML and entry module
// through the proxy, cold provisioning, HMR latency through the proxy, deploy, proxy overhead.

import { openWebSocket } from '../apps/server/src/testing/raw-websocket.ts'
import { startBareProxy } from './lib/bare-proxy.ts'
import { type BenchOptions, type BenchResult, fullRun, type Metric, metric } from './lib/metrics.ts'
import {
  get,
  medianColdProvisioning,
  previewCookie,
  signUp,
  waitForPool,
  withBenchServer,
} from './lib/product-server.ts'
import { milliseconds, p50AndP95, quantile } from './lib/stats.ts'
import { createFromWarmPool } from './lib/warm-creations.ts'

export async function benchDevbox(options: BenchOptions = fullRun): Promise<BenchResult> {
  const creations = options.quick ? 10 : Number(process.env.BENCH_CREATIONS ?? 20)
  const proxyRounds = options.quick ? 100 : 300
  const hmrRounds = options.quick ? 20 : 30
  const figures: Record<string, string> = {}
  const metrics: Metric[] = []
  await withBenchServer('devbox', 1, async (warm) => {
    const token = await signUp(warm, 'warm@example.com')
    const previewTimes: number[] = []
    const { readyTimes, kept } = await createFromWarmPool(
      warm,
      token,
      creations,
      async (created) => {
        const cookie = await previewCookie(warm, token, created.previewUrl, created.previewHost)
        const html = await get(warm.port, created.previewHost, '/', { cookie, accept: 'text/html' })
        const entry = await get(warm.port, created.previewHost, '/src/main.tsx', { cookie })
        if (html.status !== 200 || entry.status !== 200) throw new Error('preview did not answer')
        previewTimes.push(performance.now() - created.started)
      },
    )
    figures[`create → editor-ready, warm pool (p50 / p95, n=${creations})`] = p50AndP95(readyTimes)
    figures['create → preview HTML + entry module via proxy (p50 / p95)'] = p50AndP95(previewTimes)
    metrics.push(
      metric(
        'create → editor-ready, warm pool, p95',
        quantile(readyTimes, 0.95),
        'ms',
        'lower',
        `n=${creations}`,
      ),
      metric(
        'create → preview HTML + entry module via proxy, p95',
        quantile(previewTimes, 0.95),
        'ms',
        'lower',
        `n=${creations}`,
      ),
    )

    // The figures below are of a settled machine: the pool's replacement of the last claimed box
    // (provisioned refillDelayMs after the claim) is ready before they start.
    await waitForPool(warm)
    const box = warm.server.devboxes.box(kept.id)
    const direct = box?.devServer.target()
    if (!direct) throw new Error('the dev server is not running')
    const cookie = await previewCookie(warm, token, kept.previewUrl, kept.previewHost)

    // A bare node:http proxy in front of the same dev server, in the same rounds: the part of
    // the ratio any second HTTP hop costs, whatever the proxy does.
    const bareProxy = await startBareProxy(direct)
    for (const [label, pathname, accept] of [
      ['a cached module (/src/App.tsx)', '/src/App.tsx', '*/*'],
      ['the page (/, transformed by Vite)', '/', 'text/html'],
    ] as const) {
      const proxied: number[] = []
      const straight: number[] = []
      const bare: number[] = []
      for (let round = 0; round < proxyRounds; round++) {
        let started = performance.now()
        await get(warm.port, kept.previewHost, pathname, { cookie, accept })
        proxied.push(performance.now() - started)
        started = performance.now()
        await get(direct, 'localhost', pathname, { accept })
        straight.push(performance.now() - started)
        started = performance.now()
        await get(bareProxy.port, 'localhost', pathname, { accept })
        bare.push(performance.now() - started)
      }
      const directMedian = quantile(straight, 0.5)
      const ratio = quantile(proxied, 0.5) / directMedian
      figures[`preview request via proxy vs dev server directly, ${label} (median)`] =
        `${quantile(proxied, 0.5).toFixed(2)} ms vs ${directMedian.toFixed(2)} ms = ${ratio.toFixed(2)}×; a bare node:http proxy: ${quantile(bare, 0.5).toFixed(2)} ms = ${(quantile(bare, 0.5) / directMedian).toFixed(2)}×`
      metrics.push(
        metric(
          `preview via proxy / dev server directly, ${pathname} (median)`,
          ratio,
          '×',
          'lower',
          `n=${proxyRounds}`,
        ),
      )
    }
    bareProxy.close()

    const updates: number[] = []
    let waiting: ((at: number) => void) | undefined
    const socket = await openWebSocket(warm.port, kept.previewHost, cookie, (text) => {
      if (text.includes('"update"') || text.includes('"full-reload"')) waiting?.(performance.now())
    })
    for (let round = 0; round < hmrRounds; round++) {
      const arrived = new Promise<number>((resolve) => {
        waiting = resolve
      })
      const written = performance.now()
      await box?.files.write(
        'src/App.tsx',
        `export function App() {\n  return <h1>Round ${round}</h1>\n}\n`,
      )
      const at = await Promise.race([
        arrived,
        new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 5000)),
      ])
      if (!Number.isNaN(at)) updates.push(at - written)
      await new Promise((resolve) => setTimeout(resolve, 150))
    }
    socket.destroy()
    figures[`file written → HMR update on the preview WebSocket (p50 / p95, n=${updates.length})`] =
      `${quantile(updates, 0.5).toFixed(1)} ms / ${quantile(updates, 0.95).toFixed(1)} ms`
    for (const [label, fraction] of [
      ['p50', 0.5],
      ['p95', 0.95],
    ] as const) {
      metrics.push(
        metric(
          `file written → HMR update on the preview WebSocket, ${label}`,
          quantile(updates, fraction),
          'ms',
          'lower',
          `n=${updates.length}`,
        ),
      )
    }

    if (!options.quick) {
      const deployStarted = performance.now()
      const deployed = await warm.call(`/api/applications/${kept.id}/deploy`, {
        method: 'POST',
        token,
      })
      if (deployed.status !== 200) throw new Error(`deploy failed: ${await deployed.text()}`)
      figures['deploy of the starter template'] = milliseconds(performance.now() - deployStarted)
    }
  })

  const coldProvisioning = await medianColdProvisioning()
  figures['cold provisioning, empty pool, warm npm cache (median of 3)'] =
    milliseconds(coldProvisioning)
  metrics.push(
    metric(
      'cold provisioning, empty pool, warm npm cache (median)',
      coldProvisioning,
      'ms',
      'lower',
      'median of 3',
    ),
  )
  return { figures, metrics }
}
