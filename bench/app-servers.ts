// Production servers (docs/architecture/devbox.md "Production servers") on the fixture app
// (testing/app-server-fixture.ts): first answer from zero, /api through the apps proxy vs direct,
// idle memory.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { proxyHttp } from '../apps/server/src/devboxes/preview-host/proxy.ts'
import {
  type AppServerManager,
  createAppServerManager,
} from '../packages/devbox/src/app-servers/app-server-manager.ts'
import { instanceIdPrefix } from '../packages/devbox/src/app-servers/instance-id.ts'
import { buildDeploy } from '../packages/devbox/src/deploy.ts'
import { targetConnection } from '../packages/devbox/src/dev-server-request.ts'
import type { DevServerTarget } from '../packages/devbox/src/devbox-driver.ts'
import { createLocalDriver } from '../packages/devbox/src/drivers/local/local-driver.ts'
import { removeWithMounts } from '../packages/devbox/src/drivers/local/sandbox/box-disk.ts'
import { createFullStackFixtureTemplates } from '../packages/devbox/src/testing/app-server-fixture.ts'
import { templatesDir, testCacheDir } from '../packages/devbox/src/testing/devbox-support.ts'
import { startBareProxy } from './lib/bare-proxy.ts'
import { type BenchOptions, type BenchResult, fullRun, type Metric, metric } from './lib/metrics.ts'
import { p50AndP95, quantile } from './lib/stats.ts'

const coldStarts = 20
const idleApps = 20

function timedGet(target: DevServerTarget, agent: http.Agent, pathname: string, host: string) {
  return new Promise<number>((resolve, reject) => {
    const started = performance.now()
    const request = http.get(
      { ...targetConnection(target), agent, path: pathname, headers: { host } },
      (response) => {
        response.resume()
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${pathname} answered ${response.statusCode}`)),
        )
      },
    )
    request.on('error', reject)
  })
}

/** Rss and Pss (MB) summed over the processes of the apps' production servers and bridges. */
/** Scaled to zero → the first answer to `pathname`, timed `rounds` times. */
async function coldStartTimes(
  manager: AppServerManager,
  appId: string,
  rounds: number,
  request: { pathname: string; noServer: string },
): Promise<number[]> {
  const times: number[] = []
  for (let round = 0; round < rounds; round++) {
    await manager.stop(appId)
    const started = performance.now()
    const lease = await manager.acquire(appId)
    if (!lease) throw new Error(request.noServer)
    await timedGet(lease.target, new http.Agent(), request.pathname, 'localhost')
    lease.release()
    times.push(performance.now() - started)
  }
  return times
}

function serverMemory(appIds: string[]) {
  const prefixes = appIds.map(instanceIdPrefix)
  let rss = 0
  let pss = 0
  let processes = 0
  let serverRss = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      const cgroup = readFileSync(`/proc/${pid}/cgroup`, 'utf8')
      // The server's processes are in its cgroup; the bridge names the instance's socket.
      const mine = prefixes.some(
        (prefix) => cgroup.includes(`/${prefix}`) || commandLine.includes(`/${prefix}`),
      )
      if (!mine) continue
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
      const field = (name: string) =>
        Number(
          /^(\w+):\s+(\d+)/m.exec(
            rollup.split('\n').find((line) => line.startsWith(`${name}:`)) ?? '',
          )?.[2] ?? 0,
        ) / 1024
      rss += field('Rss')
      pss += field('Pss')
      processes += 1
      if (commandLine.split('\0')[1] === 'server/index.js') serverRss += field('Rss')
    } catch {}
  }
  return { rss, pss, processes, serverRss }
}

/** Quick (`--compare`): the apps host's proxy against the server directly only. */
export async function benchAppServers(options: BenchOptions = fullRun): Promise<BenchResult> {
  const requests = options.quick ? 300 : 500
  const root = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-app-servers-'))
  const deploysDir = path.join(root, 'deploys')
  const driver = createLocalDriver({
    rootDir: path.join(root, 'root'),
    templatesDir: await createFullStackFixtureTemplates(path.join(root, 'templates')),
    cacheDir: testCacheDir,
  })
  let manager: AppServerManager | undefined
  const figures: Record<string, string> = { confinement: JSON.stringify(driver.enforcement) }
  const metrics: Metric[] = []
  try {
    manager = createAppServerManager({
      deploysDir,
      startAppServer: driver.startAppServer,
      idleMs: 60 * 60_000,
    })
    const box = await driver.provision('fullstack')
    const appIds = Array.from(
      { length: options.quick ? 1 : idleApps },
      (_, index) => `bench-app-${index}`,
    )
    await buildDeploy({
      box,
      deploysDir,
      appId: appIds[0] ?? '',
      timeoutSeconds: 60,
      appServers: manager,
    })
    for (const appId of appIds.slice(1)) {
      execFileSync('cp', [
        '-a',
        path.join(deploysDir, appIds[0] ?? ''),
        path.join(deploysDir, appId),
      ])
    }
    const appId = appIds[0] ?? ''
    const agent = new http.Agent({ keepAlive: true })

    const cold = await coldStartTimes(manager, appId, options.quick ? 0 : coldStarts, {
      pathname: '/api/version',
      noServer: 'no server',
    })
    if (!options.quick) {
      figures[`scaled to zero → first /api answer (p50 / p95, n=${coldStarts})`] = p50AndP95(cold)
    }

    // The apps host's path for /api: a lease from the manager, then proxyHttp to the server.
    const appServers = manager
    const host = http.createServer((request, response) => {
      void appServers.acquire(appId).then((lease) => {
        if (!lease) return response.writeHead(404).end()
        response.once('close', lease.release)
        proxyHttp(request, response, lease.target, { maxBodyBytes: 1024 * 1024 })
      })
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const hostTarget = { host: '127.0.0.1', port: (host.address() as AddressInfo).port }
    const lease = await manager.acquire(appId)
    if (!lease) throw new Error('no server')
    // A bare node:http proxy in front of the same server, in the same rounds: what any second
    // HTTP hop costs.
    const bareProxy = await startBareProxy(lease.target)
    const bareTarget = { host: '127.0.0.1', port: bareProxy.port }
    const direct: number[] = []
    const proxied: number[] = []
    const bare: number[] = []
    for (let round = 0; round < requests; round++) {
      direct.push(await timedGet(lease.target, agent, '/api/version', 'localhost'))
      proxied.push(await timedGet(hostTarget, agent, '/api/version', 'app.apps.localhost'))
      bare.push(await timedGet(bareTarget, agent, '/api/version', 'localhost'))
    }
    lease.release()
    bareProxy.close()
    host.closeAllConnections()
    host.close()
    const directMedian = quantile(direct, 0.5)
    const proxiedMedian = quantile(proxied, 0.5)
    const bareMedian = quantile(bare, 0.5)
    figures[
      `/api/version through the apps host's proxy vs the server directly (median, n=${requests})`
    ] =
      `${proxiedMedian.toFixed(2)} ms vs ${directMedian.toFixed(2)} ms = ${(proxiedMedian / directMedian).toFixed(2)}×; a bare node:http proxy: ${bareMedian.toFixed(2)} ms = ${(bareMedian / directMedian).toFixed(2)}×`
    metrics.push(
      metric(
        "/api/version through the apps host's proxy / the server directly (median)",
        proxiedMedian / directMedian,
        '×',
        'lower',
        `n=${requests}`,
      ),
    )
    if (options.quick) return { figures, metrics }

    await delay(2000)
    const one = serverMemory([appId])
    figures['one idle server: node alone, Rss'] = `${one.serverRss.toFixed(1)} MB`
    figures['one idle server with its bwrap and network bridge: Rss sum / Pss sum'] =
      `${one.rss.toFixed(1)} MB / ${one.pss.toFixed(1)} MB (${one.processes} processes)`
    for (const other of appIds.slice(1)) {
      const started = await manager.acquire(other)
      started?.release()
    }
    await delay(2000)
    const all = serverMemory(appIds)
    figures[`${idleApps} idle deployed apps, all running: Rss sum / Pss sum`] =
      `${all.rss.toFixed(0)} MB / ${all.pss.toFixed(0)} MB (${all.processes} processes)`
    agent.destroy()
    await manager.close()
    Object.assign(figures, await benchStarter(root))
    return { figures, metrics }
  } finally {
    await manager?.close()
    await driver.shutdown()
    await removeWithMounts(root)
  }
}

/** The real fullstack starter's build (Hono, node:sqlite, bundled): cold start and memory. */
async function benchStarter(root: string): Promise<Record<string, string>> {
  const deploysDir = path.join(root, 'starter-deploys')
  const driver = createLocalDriver({
    rootDir: path.join(root, 'starter-root'),
    templatesDir,
    cacheDir: testCacheDir,
  })
  const manager = createAppServerManager({
    deploysDir,
    startAppServer: driver.startAppServer,
    idleMs: 60 * 60_000,
  })
  try {
    const box = await driver.provision('fullstack')
    const appId = 'starter-app'
    await buildDeploy({ box, deploysDir, appId, timeoutSeconds: 300, appServers: manager })
    await driver.destroy(box.id)
    const cold = await coldStartTimes(manager, appId, 10, {
      pathname: '/api/health',
      noServer: 'the starter has no server',
    })
    await delay(2000)
    const memory = serverMemory([appId])
    return {
      'the fullstack starter: scaled to zero → first /api/health answer (p50 / p95, n=10)':
        p50AndP95(cold),
      'the fullstack starter, idle: node alone Rss; with bwrap and bridge Rss sum / Pss sum': `${memory.serverRss.toFixed(1)} MB; ${memory.rss.toFixed(1)} MB / ${memory.pss.toFixed(1)} MB`,
    }
  } finally {
    await manager.close()
    await driver.shutdown()
  }
}
