// Dev boxes with full confinement (own network namespace, uid, cgroups; decision 012) against
// bubblewrap alone (the confinement before it), in one run: provision time, a request to the
// dev server the way the preview proxy makes it, a command, and the bridge's memory.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { proxyHttp } from '../apps/server/src/devboxes/preview-host/proxy.ts'
import { targetConnection } from '../packages/devbox/src/dev-server-request.ts'
import type { DevServerTarget } from '../packages/devbox/src/devbox-driver.ts'
import {
  createLocalDriver,
  type LocalDevbox,
} from '../packages/devbox/src/drivers/local/local-driver.ts'
import { templatesDir, testCacheDir } from '../packages/devbox/src/testing/devbox-support.ts'
import { milliseconds, quantile } from './lib/stats.ts'

const provisions = 6
const requests = 300
const commands = 30

function timedGet(target: DevServerTarget, agent: http.Agent, pathname: string) {
  return new Promise<number>((resolve, reject) => {
    const started = performance.now()
    const request = http.get(
      { ...targetConnection(target), agent, path: pathname, headers: { host: 'localhost' } },
      (response) => {
        response.resume()
        response.on('end', () => resolve(performance.now() - started))
      },
    )
    request.on('error', reject)
  })
}

export async function benchConfinement(): Promise<Record<string, string>> {
  if (process.getuid?.() !== 0) return { skipped: 'full confinement needs root' }
  const root = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-confinement-'))
  const modes = {
    full: createLocalDriver({
      rootDir: path.join(root, 'full'),
      templatesDir,
      cacheDir: testCacheDir,
    }),
    'bubblewrap only': createLocalDriver({
      rootDir: path.join(root, 'plain'),
      templatesDir,
      cacheDir: testCacheDir,
      fullConfinement: false,
    }),
  }
  const figures: Record<string, string> = {
    enforcement: JSON.stringify(modes.full.enforcement),
  }
  try {
    const provisionTimes: Record<string, number[]> = { full: [], 'bubblewrap only': [] }
    const boxes: Record<string, LocalDevbox[]> = { full: [], 'bubblewrap only': [] }
    await modes.full.provision('vite-react') // warms the dependency cache outside the figures
    for (let round = 0; round < provisions; round++) {
      for (const [mode, driver] of Object.entries(modes)) {
        const started = performance.now()
        const box = await driver.provision('vite-react')
        provisionTimes[mode]?.push(performance.now() - started)
        boxes[mode]?.push(box)
      }
    }
    for (const [mode, times] of Object.entries(provisionTimes)) {
      figures[`provision with a warm cache, ${mode} (p50 / p95, n=${provisions})`] =
        `${milliseconds(quantile(times, 0.5))} / ${milliseconds(quantile(times, 0.95))}`
    }

    // Modes alternate round by round, so the machine's noise falls on both alike.
    const lanes = await Promise.all(
      Object.entries(boxes).map(async ([mode, list]) => {
        const box = list[0]
        const target = box?.devServer.target()
        if (!box || !target) throw new Error(`no running box for ${mode}`)
        // The preview proxy's own code in front, as a preview request takes it (without auth).
        const proxy = http.createServer((request, response) => proxyHttp(request, response, target))
        await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
        const proxyTarget = { host: '127.0.0.1', port: (proxy.address() as AddressInfo).port }
        return {
          mode,
          box,
          target,
          proxy,
          proxyTarget,
          agent: new http.Agent({ keepAlive: true }),
          direct: [] as number[],
          preview: [] as number[],
          commands: [] as number[],
        }
      }),
    )
    for (let round = 0; round < requests; round++) {
      for (const lane of lanes) {
        lane.direct.push(await timedGet(lane.target, lane.agent, '/src/App.tsx'))
        lane.preview.push(await timedGet(lane.proxyTarget, lane.agent, '/src/App.tsx'))
      }
    }
    for (let round = 0; round < commands; round++) {
      for (const lane of lanes) {
        const started = performance.now()
        await lane.box.exec('true', { timeoutSeconds: 10 })
        lane.commands.push(performance.now() - started)
      }
    }
    const medians: Record<string, number> = {}
    const previewMedians: Record<string, number> = {}
    const commandMedians: Record<string, number> = {}
    for (const lane of lanes) {
      medians[lane.mode] = quantile(lane.direct, 0.5)
      previewMedians[lane.mode] = quantile(lane.preview, 0.5)
      commandMedians[lane.mode] = quantile(lane.commands, 0.5)
      lane.proxy.closeAllConnections()
      lane.proxy.close()
      lane.agent.destroy()
    }
    const ratio = (medians.full ?? 0) / (medians['bubblewrap only'] ?? 1)
    figures['dev server request /src/App.tsx, full vs bubblewrap only (median)'] =
      `${medians.full?.toFixed(2)} ms vs ${medians['bubblewrap only']?.toFixed(2)} ms = ${ratio.toFixed(2)}×`
    const previewRatio = (previewMedians.full ?? 0) / (previewMedians['bubblewrap only'] ?? 1)
    figures['preview request through the preview proxy, full vs bubblewrap only (median)'] =
      `${previewMedians.full?.toFixed(2)} ms vs ${previewMedians['bubblewrap only']?.toFixed(2)} ms = ${previewRatio.toFixed(2)}×`
    figures['a command (`true`), full vs bubblewrap only (median)'] =
      `${commandMedians.full?.toFixed(1)} ms vs ${commandMedians['bubblewrap only']?.toFixed(1)} ms`
    const bridges = execFileSync('pgrep', ['-f', 'box-bridge.mjs'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((pid) => pid && !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bwrap'))
    const memory = (field: string) =>
      bridges.map((pid) => {
        const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
        const match = rollup.split('\n').find((line) => line.startsWith(`${field}:`))
        return Number(match?.split(/\s+/)[1] ?? 0) / 1024
      })
    figures['network bridge per box, own memory / resident incl. shared pages (median)'] =
      `${quantile(memory('Private_Dirty'), 0.5).toFixed(1)} MB / ${quantile(memory('Rss'), 0.5).toFixed(1)} MB (n=${bridges.length})`
    return figures
  } finally {
    await Promise.all(Object.values(modes).map((driver) => driver.shutdown()))
    await rm(root, { recursive: true, force: true })
  }
}
