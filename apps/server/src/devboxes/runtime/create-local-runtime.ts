import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from '@sprout/db/database.ts'
import { createLocalDriver } from '@sprout/devbox/drivers/local/local-driver.ts'
import { checkDiskSupport } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { checkSandbox } from '@sprout/devbox/drivers/local/sandbox/sandbox.ts'
import { checkDependencySupport } from '@sprout/devbox/drivers/local/workspace/shared-dependencies.ts'
import { templateVersions } from '@sprout/devbox/drivers/local/workspace/template-versions.ts'
import type { DevboxLogger } from '@sprout/devbox/logger.ts'
import { boxesHomeOf } from '../../config/boxes-home.ts'
import type { Config } from '../../config/config.ts'
import type { AppProcessSupportFor } from './devbox-runtime.ts'
import { createRuntimeForDriver, type SharedPoolOptions } from './runtime-for-driver.ts'

export const templatesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../templates',
)

export const devboxLogger: DevboxLogger = {
  info: (message, details) => console.log(`[devbox] ${message}`, details ?? ''),
  warn: (message, details) => console.warn(`[devbox] ${message}`, details ?? ''),
  error: (message, details) => console.error(`[devbox] ${message}`, details ?? ''),
}

/**
 * Starts the driver's machine checks and /etc staging as child processes before the database opens,
 * so they run meanwhile (docs/architecture/devbox.md "Sandbox"); `createLocalDevboxRuntime` takes
 * their answers. Never rejects: the driver reruns a failed check.
 */
export async function checkLocalDevboxMachine(
  config: Pick<Config, 'dataDir' | 'sharedDir' | 'devbox'>,
) {
  const rootDir = path.resolve(boxesHomeOf(config), 'devboxes')
  // The folders and modes createLocalDriver gives its detections (box-disk.ts, local-driver.ts).
  await Promise.all([
    checkDiskSupport(config.devbox.disk, path.join(rootDir, 'disks')),
    config.devbox.sandbox === 'off'
      ? undefined
      : checkSandbox({ stateDirectory: rootDir, boxUid: config.devbox.boxUid }),
    checkDependencySupport(config.devbox.disk === 'auto' ? 'shared' : 'copied', rootDir),
  ]).catch(() => undefined)
}

/** Dev boxes as local folders and processes under DATA_DIR/devboxes, with a warm pool. */
export function createLocalDevboxRuntime(
  config: Pick<
    Config,
    'dataDir' | 'sharedDir' | 'databaseUrl' | 'devbox' | 'appsIdleMinutes' | 'appsDiskMb'
  >,
  db: Database,
  options: {
    appProcesses: AppProcessSupportFor
    logger?: DevboxLogger
    sharedPool?: SharedPoolOptions
  },
) {
  const logger = options.logger ?? devboxLogger
  const rootDir = path.join(boxesHomeOf(config), 'devboxes')
  const deploysDir = path.join(boxesHomeOf(config), 'deploys')
  const driver = createLocalDriver({
    rootDir,
    // Its production data images too: released at a stop, left ones undone at start.
    deploysDir,
    templatesDir,
    logger,
    sandbox: config.devbox.sandbox,
    cacheDir: config.devbox.cacheDir,
    limits: config.devbox.limits,
    // As root each box's workspace and data, and each deployed app's data, get a filesystem of
    // their own (box-disk.ts); elsewhere, or with DEVBOX_DISK=measured, the disk is measured.
    disk: config.devbox.disk,
    appsDiskMb: config.appsDiskMb,
    egress: config.devbox.egress,
    registryUrl: config.devbox.registryUrl,
    internalRequests: (boxId, request, response) =>
      runtime.internalRequest(boxId, request, response),
    boxUid: config.devbox.boxUid,
  })
  const runtime = createRuntimeForDriver(config, db, {
    ...options,
    driver,
    logger,
    deploysDir,
    startAppServer: driver.startAppServer,
    confinement: { limits: driver.limits, enforcement: driver.enforcement },
    templateOf: templateVersions(templatesDir),
  })
  return runtime
}
