import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Devbox } from '../../devbox-driver.ts'
import type { EgressPolicy, InternalRequestHandler } from '../../egress/egress-proxy.ts'
import { type DevboxLogger, silentLogger } from '../../logger.ts'
import { createAppServerStarter } from './processes/app-server-starter.ts'
import type { DevServer } from './processes/dev-server.ts'
import { type BoxLimits, defaultBoxLimits } from './sandbox/box-cgroup.ts'
import { type DiskMode, describeDiskEnforcement } from './sandbox/box-disk.ts'
import { type BoxDisks, createBoxDisks } from './sandbox/box-disks.ts'
import { createSandbox, type Sandbox, type SandboxMode } from './sandbox/sandbox.ts'
import { createDependencyCache, type DependencyCache } from './workspace/dependency-cache.ts'
import {
  createSharedDependencies,
  type DependencyMode,
  type SharedDependencies,
} from './workspace/shared-dependencies.ts'

/** APPS_DISK_MB's default: the size of a deployed app's data folder. */
export const defaultAppsDiskMb = 1024

export type LocalDriverOptions = {
  /** Holds `workspaces/{id}` and, unless `cacheDir` is given, `cache/{packType}`. */
  rootDir: string
  /** Holds one starter app per pack type, e.g. `templates/vite-react`. */
  templatesDir: string
  logger?: DevboxLogger
  /** `auto` uses bubblewrap when it works here; `off` runs plain processes (DEVBOX_SANDBOX=off). */
  sandbox?: SandboxMode
  /** Where prepared node_modules are kept; defaults to `{rootDir}/cache`. */
  cacheDir?: string
  /** Extra environment for dev servers, e.g. HMR_CLIENT_PORT. */
  devServerEnv?: Record<string, string>
  /** Per-box limits (DEVBOX_PIDS, DEVBOX_MEMORY_MB, DEVBOX_CPUS, DEVBOX_DISK_MB). */
  limits?: Partial<BoxLimits>
  /**
   * `auto`: as root, box folders live on DEVBOX_DISK_MB images and production data on `appsDiskMb`
   * ones (box-disks.ts). `measured` (default, for tests and tools that `rm` their folders): box
   * folders are measured, production data is unlimited.
   */
  disk?: DiskMode
  /**
   * `shared` (the default with `disk: 'auto'`): as root with overlayfs, a box's node_modules is
   * the prepared cache's, read-only, under a writable layer of its own (shared-dependencies.ts),
   * instead of a copy; `copied` (the default with `measured`, and the fallback): a real copy.
   */
  dependencies?: DependencyMode
  /** APPS_DISK_MB: the size of each deployed app's data folder, 1024 by default. */
  appsDiskMb?: number
  /**
   * Holds the deploys and their data folders (`{app}/data`): what a killed server left mounted
   * there is unmounted at start, as under `rootDir` (release-disks.ts).
   */
  deploysDir?: string
  /** DEVBOX_EGRESS: what the egress proxy lets boxes reach. */
  egress?: EgressPolicy
  /** The npm registry the server uses: the one host `egress: 'registry'` allows. */
  registryUrl?: string
  /**
   * Answers `http://sprout.internal` for a box (dev box or production instance, by its id): the
   * error ingest (docs/architecture/devbox.md "Error reports").
   */
  internalRequests?: InternalRequestHandler
  /** The unprivileged uid (and gid) box processes run as when the server is root. */
  boxUid?: number
  /** False: bubblewrap alone, for benchmarks only (see SandboxOptions). */
  fullConfinement?: boolean
}

export type LocalDevbox = Devbox & { devServer: DevServer }

export type AttachedBox = {
  box: LocalDevbox
  stopAll: AbortController
  release: () => Promise<void>
  owner: { uid: number; gid: number } | undefined
}

/** The driver's boxes, cache and confinement, shared by the verbs of local-driver.ts. */
export type LocalDriverState = {
  options: LocalDriverOptions
  logger: DevboxLogger
  rootDir: string
  workspacesDir: string
  appDataDir: string
  disks: BoxDisks
  appsDiskMb: number
  sandbox: Sandbox
  cache: DependencyCache
  dependencies: SharedDependencies
  attached: Map<string, AttachedBox>
  appServers: ReturnType<typeof createAppServerStarter>
}

export function createLocalDriverState(options: LocalDriverOptions): LocalDriverState {
  const logger = options.logger ?? silentLogger
  const rootDir = path.resolve(options.rootDir)
  const workspacesDir = path.join(rootDir, 'workspaces')
  const appDataDir = path.join(rootDir, 'data')
  mkdirSync(workspacesDir, { recursive: true })
  mkdirSync(appDataDir, { recursive: true })
  const disks = createBoxDisks({
    rootDir,
    deploysDir: options.deploysDir,
    logger,
    mode: options.disk ?? 'measured',
  })
  const appsDiskMb = options.appsDiskMb ?? defaultAppsDiskMb
  const diskMb = options.limits?.diskMb ?? defaultBoxLimits.diskMb
  const sandbox = createSandbox({
    mode: options.sandbox ?? 'auto',
    stateDirectory: rootDir,
    logger,
    limits: options.limits,
    egress: options.egress,
    registryUrl: options.registryUrl,
    internalRequests: options.internalRequests,
    boxUid: options.boxUid,
    fullConfinement: options.fullConfinement,
    diskEnforcement: describeDiskEnforcement(disks.support, { diskMb, appsDiskMb }),
  })
  const cache = createDependencyCache({
    cacheDir: options.cacheDir ?? path.join(rootDir, 'cache'),
    logger,
  })
  const dependencies = createSharedDependencies({
    mode: options.dependencies ?? (options.disk === 'auto' ? 'shared' : 'copied'),
    rootDir,
    logger,
  })
  if (!dependencies.support.shared && options.dependencies === 'shared') {
    logger.warn('Dev boxes get a copy of their dependencies', {
      reason: dependencies.support.reason,
    })
  }
  return {
    options,
    logger,
    rootDir,
    workspacesDir,
    appDataDir,
    disks,
    appsDiskMb,
    sandbox,
    cache,
    dependencies,
    attached: new Map(),
    appServers: createAppServerStarter({ sandbox, logger, disks, appsDiskMb }),
  }
}
