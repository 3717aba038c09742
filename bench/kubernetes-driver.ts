// Issue 31's figures: a box's create → ready and an exec round trip, through the kubernetes
// driver (the test API server, whose kubelet runs pods as this machine's processes, and the
// in-box agent) against the local driver's, on the same stand-in template.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Devbox, DevboxDriver } from '../packages/devbox/src/devbox-driver.ts'
import { createKubernetesDriver } from '../packages/devbox/src/drivers/kubernetes/kubernetes-driver.ts'
import {
  publishedAddress,
  startTestApiServer,
} from '../packages/devbox/src/drivers/kubernetes/testing/api-server.ts'
import { testBoxSettings } from '../packages/devbox/src/drivers/kubernetes/testing/test-box-settings.ts'
import { createLocalDriver } from '../packages/devbox/src/drivers/local/local-driver.ts'
import { silentLogger } from '../packages/devbox/src/logger.ts'
import { createFakeTemplates, testCacheDir } from '../packages/devbox/src/testing/devbox-support.ts'
import { p50AndP95, quantile } from './lib/stats.ts'

const boxes = Number(process.env.BENCH_BOXES ?? 5)
const rounds = Number(process.env.BENCH_ROUNDS ?? 30)

type Timings = { ready: number[]; exec: number[]; read: number[] }

/** `boxes` boxes made one after another, then exec and file rounds on the last. */
async function measure(driver: DevboxDriver): Promise<Timings> {
  const timings: Timings = { ready: [], exec: [], read: [] }
  const ids: string[] = []
  let box: Devbox | undefined
  try {
    for (let index = 0; index < boxes; index++) {
      const id = `bench-${index}-${Date.now().toString(36)}`
      const started = performance.now()
      box = await driver.provision('vite-react', { id })
      timings.ready.push(performance.now() - started)
      ids.push(id)
    }
    if (!box) throw new Error('no box was made')
    await box.files.write('bench.txt', 'a line\n')
    for (let round = 0; round < rounds; round++) {
      let started = performance.now()
      const result = await box.exec('true', { timeoutSeconds: 30 })
      if (result.exitCode !== 0) throw new Error(`exec failed: ${result.output}`)
      timings.exec.push(performance.now() - started)
      started = performance.now()
      await box.files.read('bench.txt')
      timings.read.push(performance.now() - started)
    }
  } finally {
    for (const id of ids) await driver.destroy(id).catch(() => undefined)
    await driver.shutdown()
  }
  return timings
}

export async function benchKubernetesDriver(): Promise<Record<string, string>> {
  const baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-kubernetes-'))
  const figures: Record<string, string> = {}
  try {
    const templates = await createFakeTemplates(path.join(baseDirectory, 'templates'))
    const local = await measure(
      createLocalDriver({
        rootDir: path.join(baseDirectory, 'local'),
        templatesDir: templates,
        cacheDir: testCacheDir,
        logger: silentLogger,
      }),
    )
    const server = await startTestApiServer({
      rootDir: path.join(baseDirectory, 'cluster'),
      imagePaths: [templates],
    })
    let pods: Timings
    try {
      pods = await measure(
        createKubernetesDriver({
          kubeConfig: server.kubeConfig(),
          settings: testBoxSettings(templates),
          address: publishedAddress,
          logger: silentLogger,
        }),
      )
    } finally {
      await server.close()
    }
    const ratio = (key: keyof Timings) =>
      `${(quantile(pods[key], 0.5) / quantile(local[key], 0.5)).toFixed(1)}×`
    figures[`box create → dev server ready, local driver (p50 / p95, n=${boxes})`] = p50AndP95(
      local.ready,
    )
    figures['… kubernetes driver, test API server (p50 / p95)'] =
      `${p50AndP95(pods.ready)} (${ratio('ready')})`
    figures[`exec \`true\` round trip, local (p50 / p95, n=${rounds})`] = p50AndP95(local.exec)
    figures['… kubernetes, exec through the API server (p50 / p95)'] =
      `${p50AndP95(pods.exec)} (${ratio('exec')})`
    figures[`file read, local (p50 / p95, n=${rounds})`] = p50AndP95(local.read)
    figures['… kubernetes, through the in-box agent (p50 / p95)'] =
      `${p50AndP95(pods.read)} (${ratio('read')})`
  } finally {
    await rm(baseDirectory, { recursive: true, force: true, maxRetries: 3 })
  }
  return figures
}
