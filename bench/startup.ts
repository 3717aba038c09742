// `npm start` to healthy, cold (new DATA_DIR: creates the database) and warm; idle RSS.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { prepareClusterFromCache } from '../packages/db/src/pglite-cluster.ts'
import { removeWithMounts } from '../packages/devbox/src/drivers/local/sandbox/box-disk.ts'
import { type BenchOptions, type BenchResult, fullRun, metric } from './lib/metrics.ts'
import { npmStartNodeFlags, residentMemoryMiB, startServerProcess } from './lib/server-process.ts'

export async function benchStartup(options: BenchOptions = fullRun): Promise<BenchResult> {
  const warmRuns = options.quick ? 1 : 3
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-start-'))
  const environment = { DATA_DIR: dataDir, PORT: '3901', HOST: '127.0.0.1', SPROUT_SKIP_BUILD: '1' }
  const nodeFlags = npmStartNodeFlags()
  // What the first start after an install pays once: PGlite's initdb, into an empty cache.
  const clusterStarted = performance.now()
  await prepareClusterFromCache(path.join(dataDir, 'first', 'pglite'), path.join(dataDir, 'cache'))
  const clusterMs = performance.now() - clusterStarted
  await rm(path.join(dataDir, 'first'), { recursive: true })
  await rm(path.join(dataDir, 'cache'), { recursive: true })
  // The cold start below copies the installation's cached cluster (packages/db/src/pglite-cluster.ts).
  await prepareClusterFromCache(path.join(dataDir, 'pglite'))
  await rm(path.join(dataDir, 'pglite'), { recursive: true })
  try {
    const cold = await startServerProcess({
      entry: 'scripts/start.ts',
      environment,
      port: 3901,
      nodeFlags,
    })
    await cold.stop()
    const warmTimes: number[] = []
    let idleRss = 0
    for (let run = 0; run < warmRuns; run++) {
      const warm = await startServerProcess({
        entry: 'scripts/start.ts',
        environment,
        port: 3901,
        nodeFlags,
      })
      warmTimes.push(warm.readyMs)
      if (run === warmRuns - 1) idleRss = await steadyResidentMemory(warm.child.pid ?? 0)
      await warm.stop()
    }
    warmTimes.sort((a, b) => a - b)
    return {
      figures: {
        'start to healthy, cold (PGlite created)': `${Math.round(cold.readyMs)} ms`,
        'PGlite cluster made for the cache (once per install)': `${Math.round(clusterMs)} ms`,
        [`start to healthy, warm (median of ${warmRuns})`]: `${Math.round(warmTimes[Math.floor(warmRuns / 2)] ?? 0)} ms`,
        [`idle RSS ${steadyAfterSeconds} s after start (PGlite, pool full)`]: `${idleRss.toFixed(0)} MiB`,
      },
      metrics: [
        metric('start to healthy, cold (PGlite created)', cold.readyMs, 'ms', 'lower', 'n=1'),
        metric(
          'idle RSS at a steady state (PGlite)',
          idleRss,
          'MiB',
          'lower',
          `median of 5, ${steadyAfterSeconds} s after a warm start`,
        ),
      ],
    }
  } finally {
    await removeWithMounts(dataDir)
  }
}

/**
 * Idle memory at a steady state: the pool's boxes are made in the first seconds after a start,
 * so RSS is read a minute later, the median of five readings a second apart.
 */
const steadyAfterSeconds = 60
async function steadyResidentMemory(pid: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, (steadyAfterSeconds - 2) * 1000))
  const readings: number[] = []
  for (let reading = 0; reading < 5; reading++) {
    readings.push(residentMemoryMiB(pid))
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  return readings.sort((a, b) => a - b)[2] ?? Number.NaN
}
