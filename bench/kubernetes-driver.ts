// Issue 31's figures: a box's create → ready, an exec round trip and a file read through the
// kubernetes driver (the test API server, whose kubelet runs pods as this machine's processes,
// and the in-box agent, at the pod's address and through port-forward; decision 040) against
// the local driver's, on the same stand-in template.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
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

type Timings = { ready: number[]; exec: number[]; read: number[]; agentKb: number[] }

/** RssAnon of each running in-box agent (the test kubelet's pods are this machine's processes). */
async function agentMemoryKb(): Promise<number[]> {
  const sizes: number[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')
    if (!/box-agent\.(ts|cjs)/.test(commandLine)) continue
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '')
    const anonymous = /RssAnon:\s+(\d+) kB/.exec(status)?.[1]
    if (anonymous) sizes.push(Number(anonymous))
  }
  return sizes
}

/** `boxes` boxes made one after another, then exec and file rounds on the last. */
async function measure(driver: DevboxDriver): Promise<Timings> {
  const timings: Timings = { ready: [], exec: [], read: [], agentKb: [] }
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
    // After the rounds: each box's agent as it lives, having served commands and files.
    timings.agentKb = await agentMemoryKb()
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
    const throughTestServer = async (reachPods: 'pod-address' | 'port-forward') => {
      const server = await startTestApiServer({
        rootDir: path.join(baseDirectory, `cluster-${reachPods}`),
        imagePaths: [templates],
      })
      try {
        return await measure(
          createKubernetesDriver({
            kubeConfig: server.kubeConfig(),
            settings: testBoxSettings(templates),
            address: publishedAddress,
            reachPods,
            logger: silentLogger,
          }),
        )
      } finally {
        await server.close()
      }
    }
    const pods = await throughTestServer('pod-address')
    const forwarded = await throughTestServer('port-forward')
    const ratio = (timings: Timings, key: keyof Timings) =>
      `${(quantile(timings[key], 0.5) / quantile(local[key], 0.5)).toFixed(1)}×`
    figures['resident memory (RssAnon) of an in-box agent after its rounds, p50 / max'] =
      `${(quantile(pods.agentKb, 0.5) / 1024).toFixed(1)} / ${(Math.max(...pods.agentKb) / 1024).toFixed(1)} MiB (n=${pods.agentKb.length})`
    const rows: [Exclude<keyof Timings, 'agentKb'>, string, number][] = [
      ['ready', 'box create → dev server ready', boxes],
      ['exec', 'exec `true` round trip', rounds],
      ['read', 'file read', rounds],
    ]
    for (const [key, title, count] of rows) {
      figures[`${title}, local driver (p50 / p95, n=${count})`] = p50AndP95(local[key])
      figures[`${title}, kubernetes: the in-box agent at the pod's address (p50 / p95)`] =
        `${p50AndP95(pods[key])} (${ratio(pods, key)})`
      figures[`${title}, kubernetes: the in-box agent through port-forward (p50 / p95)`] =
        `${p50AndP95(forwarded[key])} (${ratio(forwarded, key)})`
    }
  } finally {
    await rm(baseDirectory, { recursive: true, force: true, maxRetries: 3 })
  }
  return figures
}
