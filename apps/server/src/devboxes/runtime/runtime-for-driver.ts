import os from 'node:os'
import path from 'node:path'
import type { Database } from '@sprout/db/database.ts'
import type { StartAppServer } from '@sprout/devbox/app-servers/app-server-instance.ts'
import { createAppServerManager } from '@sprout/devbox/app-servers/app-server-manager.ts'
import type { DevboxDriver, PackType } from '@sprout/devbox/devbox-driver.ts'
import type { DevboxLogger } from '@sprout/devbox/logger.ts'
import { createDevboxPool } from '@sprout/devbox/pool.ts'
import { createStartQueue, defaultStartSlots } from '@sprout/devbox/start-queue.ts'
import type { DevboxConfinement } from '@sprout/protocol/api/applications.ts'
import type { Config } from '../../config/config.ts'
import { createPoolTable, localInstancePrefix } from '../pool/pool-table.ts'
import { type AppProcessSupportFor, createDevboxRuntime } from './devbox-runtime.ts'

/** How long the pool waits after a claim before provisioning the claimed box's replacement. */
const poolRefillDelayMs = 2000

/**
 * One of several instances (docs/decisions/034-one-pool-in-a-table.md): the pool is theirs, its
 * boxes kept closed, refilled by the leader.
 */
export type SharedPoolOptions = {
  /** The cluster's instance id, known once the runtime starts. */
  instanceId: () => string | undefined
  isLeader: () => boolean
}

export type RuntimeForDriverOptions = {
  driver: DevboxDriver
  logger: DevboxLogger
  deploysDir: string
  startAppServer: StartAppServer
  confinement: DevboxConfinement
  appProcesses: AppProcessSupportFor
  sharedPool?: SharedPoolOptions
  /** The version of each starter: pooled boxes of another are destroyed, not handed out. */
  templateOf?: (packType: PackType) => string | undefined
}

/** The runtime around a driver, whichever it is: its start queue, pool and production servers. */
export function createRuntimeForDriver(
  config: Pick<Config, 'dataDir' | 'sharedDir' | 'databaseUrl' | 'devbox' | 'appsIdleMinutes'>,
  db: Database,
  options: RuntimeForDriverOptions,
) {
  const { driver, logger, confinement } = options
  // One queue for every box start, the pool's after the users' (docs/architecture/devbox.md
  // "Starts at once").
  const starts = createStartQueue(config.devbox.maxStarts ?? defaultStartSlots())
  const pool = createDevboxPool({
    driver,
    // New apps start from the fullstack starter; old vite-react boxes open by their recorded type.
    targets: { fullstack: config.devbox.poolTarget },
    logger,
    persistence: poolTableOf(config, db, options.sharedPool),
    shared: options.sharedPool && { mayRefill: options.sharedPool.isLeader },
    // The claimed box's first preview loads go first (docs/architecture/devbox.md "Pool").
    refillDelayMs: poolRefillDelayMs,
    starts,
    templateOf: options.templateOf,
  })
  const appServers = createAppServerManager({
    deploysDir: options.deploysDir,
    startAppServer: options.startAppServer,
    idleMs: config.appsIdleMinutes * 60_000,
    logger,
    environmentFor: (appId) => runtime.secretsFor(appId),
  })
  const runtime = createDevboxRuntime({
    db,
    driver,
    pool,
    logger,
    appProcesses: options.appProcesses(confinement),
    appServers,
    confinement,
    idleMs: config.devbox.idleMinutes * 60_000,
    starts,
    boxesByLease: Boolean(config.sharedDir && config.databaseUrl),
  })
  return runtime
}

/**
 * The pool's rows (docs/decisions/034-one-pool-in-a-table.md): shared by the instances, or this
 * DATA_DIR's own, named after it so that the next start here finds them.
 */
function poolTableOf(
  config: Pick<Config, 'dataDir'>,
  db: Database,
  shared: SharedPoolOptions | undefined,
) {
  const localId = `${localInstancePrefix}${os.hostname()}:${path.resolve(config.dataDir)}`
  return createPoolTable(db, {
    instanceId: () => {
      if (!shared) return localId
      const id = shared.instanceId()
      if (!id) throw new Error('The shared dev box pool was used before its instance registered')
      return id
    },
    shared: Boolean(shared),
    legacyFile: path.join(config.dataDir, 'devboxes', 'pool.json'),
  })
}
