import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { removeWithMounts } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { createPostgresDatabase } from '../../../apps/server/src/testing/database.ts'
import {
  haproxyExecutable,
  startHaproxy,
} from '../../../apps/server/src/testing/haproxy-process.ts'
import { ownServer } from './own-server.ts'

/** Why the several-instances tests cannot run here, or undefined when they can. */
export function whyNoInstancesBehindHaproxy(): string | undefined {
  if (!process.env.TEST_DATABASE_URL) {
    return 'several instances need PostgreSQL: set TEST_DATABASE_URL (.ci/run does)'
  }
  if (!haproxyExecutable())
    return 'haproxy is not installed (apt-get install haproxy; .ci/run does)'
  return undefined
}

/**
 * Sprout instances on one fresh PostgreSQL database and one SHARED_DIR behind Debian's HAProxy,
 * as docs/operations/several-instances.md runs them: `balancerPort` is PUBLIC_URL's, each
 * instance listens on the next ports on loopback with a DATA_DIR of its own. `environment` is
 * added to every instance's (ADMIN_EMAILS, say).
 */
export async function startInstancesBehindHaproxy(options: {
  balancerPort: number
  count: number
  environment?: Record<string, string>
}) {
  const cleanups: (() => Promise<void>)[] = []
  const database = await createPostgresDatabase()
  cleanups.push(database.drop)
  const sharedDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-e2e-shared-'))
  cleanups.push(() => removeWithMounts(sharedDir))
  const publicUrl = `http://localhost:${options.balancerPort}`
  const shared = {
    DATABASE_URL: database.url,
    SHARED_DIR: sharedDir,
    VAULT_KEY: randomBytes(32).toString('base64'),
    AUTH_SECRET: randomBytes(32).toString('base64'),
    PUBLIC_URL: publicUrl,
    TRUST_PROXY: 'true',
    HOST: '127.0.0.1',
    // Each box is built when asked for: three pools warming at once would hold the 2 cores.
    DEVBOX_POOL_TARGET: '0',
    // Boxes as plain folders: the sandbox's and disk images' state is per machine (decision 033).
    DEVBOX_SANDBOX: 'off',
    DEVBOX_DISK: 'measured',
    ...options.environment,
  }
  const names = Array.from(
    { length: options.count },
    (_, index) => `sprout-${String.fromCharCode(97 + index)}`,
  )
  const instances = names.map((name, index) => ({
    name,
    port: options.balancerPort + 1 + index,
    server: ownServer(options.balancerPort + 1 + index, shared),
  }))
  let balancer: Awaited<ReturnType<typeof startHaproxy>> | undefined
  const stop = async () => {
    await balancer?.stop()
    await Promise.all(instances.map(({ server }) => server.stop()))
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  }
  try {
    // At once: the first applies the migrations under their lock while the others wait on it.
    await Promise.all(instances.map(({ server }) => server.start()))
    balancer = await startHaproxy({
      port: options.balancerPort,
      backends: instances.map(({ name, port }) => ({ name, port })),
    })
    await balancer.waitForHealthy(names)
  } catch (error) {
    await stop()
    throw error
  }
  return { url: publicUrl, balancer, instances, stop }
}
