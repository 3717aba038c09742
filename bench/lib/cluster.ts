// Several Sprout instances (child processes) on one PostgreSQL and one SHARED_DIR behind Debian's
// HAProxy running deploy/haproxy/haproxy.cfg, for the benchmarks of issue 30
// (docs/decisions/033-box-leases-and-relay.md, docs/operations/several-instances.md).
import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { startHaproxy } from '../../apps/server/src/testing/haproxy-process.ts'
import {
  type InstanceProcess,
  startInstanceProcess,
} from '../../apps/server/src/testing/instance-process.ts'
import { removeWithMounts } from '../../packages/devbox/src/drivers/local/sandbox/box-disk.ts'
import { createBenchDatabase } from './bench-database.ts'

export type BenchInstance = { name: string; port: number; process: InstanceProcess | undefined }

/**
 * `count` instances on ports `basePort + 1…` behind HAProxy on `basePort` (PUBLIC_URL
 * `http://localhost:{basePort}`), boxes as plain folders under SHARED_DIR (as the cluster tests).
 */
export async function startBenchCluster(options: {
  count: number
  basePort: number
  label: string
}) {
  const database = await createBenchDatabase(options.label)
  if (!database) throw new Error('the cluster benchmarks need PostgreSQL (TEST_DATABASE_URL)')
  const folders: string[] = []
  const folder = async (prefix: string) => {
    const made = await mkdtemp(path.join(os.tmpdir(), `sprout-bench-${prefix}-`))
    folders.push(made)
    return made
  }
  const shared = {
    DATABASE_URL: database.url,
    SHARED_DIR: await folder(`${options.label}-shared`),
    VAULT_KEY: randomBytes(32).toString('base64'),
    AUTH_SECRET: randomBytes(24).toString('hex'),
    PUBLIC_URL: `http://localhost:${options.basePort}`,
    TRUST_PROXY: 'true',
    HOST: '127.0.0.1',
    DEVBOX_SANDBOX: 'off',
    DEVBOX_DISK: 'measured',
    DEVBOX_POOL_TARGET: '0',
    DEVBOX_CACHE_DIR: path.join(os.tmpdir(), 'sprout-devbox-test-cache'),
    CHECKS: 'off',
    AUTH_RATE_LIMIT: '100000/60',
  }
  const instances: BenchInstance[] = []
  const environments = new Map<string, Record<string, string>>()
  for (let index = 0; index < options.count; index++) {
    const name = `sprout-${String.fromCharCode(97 + index)}`
    const port = options.basePort + 1 + index
    environments.set(name, {
      ...shared,
      DATA_DIR: await folder(`${options.label}-${name}`),
      PORT: String(port),
    })
    instances.push({ name, port, process: undefined })
  }
  const start = async (instance: BenchInstance) => {
    instance.process = await startInstanceProcess(environments.get(instance.name) ?? {})
  }
  const stopAll = async () => {
    await Promise.all(instances.map((instance) => instance.process?.stop()))
    await database.drop()
    for (const made of folders) await removeWithMounts(made)
  }
  let balancer: Awaited<ReturnType<typeof startHaproxy>> | undefined
  try {
    // One after the other: the first applies the migrations.
    for (const instance of instances) await start(instance)
    balancer = await startHaproxy({
      port: options.basePort,
      backends: instances.map(({ name, port }) => ({ name, port })),
    })
    await waitForHealthy(
      balancer,
      instances.map(({ name }) => name),
    )
  } catch (error) {
    await balancer?.stop()
    await stopAll()
    throw error
  }
  const started = balancer
  return {
    instances,
    balancer: started,
    databaseUrl: database.url,
    sharedDir: shared.SHARED_DIR,
    start,
    /** Until HAProxy's checks of `instance` passed again (after a restart). */
    healthy: (instance: BenchInstance) => waitForHealthy(started, [instance.name]),
    stop: async () => {
      await started.stop()
      await stopAll()
    },
  }
}

export type BenchCluster = Awaited<ReturnType<typeof startBenchCluster>>

/** HAProxy's checks of `names` passed; its runtime socket may appear a moment after its port. */
async function waitForHealthy(
  balancer: Awaited<ReturnType<typeof startHaproxy>>,
  names: string[],
): Promise<void> {
  const deadline = Date.now() + 120_000
  for (;;) {
    try {
      return await balancer.waitForHealthy(names, 60_000)
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}
