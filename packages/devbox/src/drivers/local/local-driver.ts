// Long file: the driver's one closure owns its attached boxes, provisioning and production servers.
import { execFile } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync } from 'node:fs'
import { copyFile, cp, mkdir, realpath, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import type { StartAppServer } from '../../app-servers/app-server-instance.ts'
import {
  type Devbox,
  type DevboxDriver,
  type PackType,
  WorkspacePathError,
} from '../../devbox-driver.ts'
import type { EgressPolicy, InternalRequestHandler } from '../../egress/egress-proxy.ts'
import { type DevboxLogger, silentLogger } from '../../logger.ts'
import { createAppServerStarter } from './app-server-starter.ts'
import { type BoxLimits, defaultBoxLimits } from './box-cgroup.ts'
import {
  type BoxDiskUsage,
  createBoxDisks,
  type DiskMode,
  describeDiskEnforcement,
  diskFullMessage,
  isNoSpaceError,
  measuredDisk,
} from './box-disk.ts'
import { boxEnvironment } from './box-environment.ts'
import { createBoxExec } from './box-exec.ts'
import { checkpointWorkspace } from './checkpoint.ts'
import { createDependencyCache } from './dependency-cache.ts'
import { createDevServer, type DevServer } from './dev-server.ts'
import { ensureOwner } from './ensure-owner.ts'
import { createSandbox, type Enforcement, type SandboxMode } from './sandbox.ts'
import {
  createSharedDependencies,
  type DependencyLayers,
  type DependencyMode,
  layersIn,
} from './shared-dependencies.ts'
import { createWorkspaceFiles } from './workspace-files.ts'

const runFile = promisify(execFile)
/** APPS_DISK_MB's default: the size of a deployed app's data folder. */
export const defaultAppsDiskMb = 1024
const boxIdPattern = /^[a-z0-9][a-z0-9-]{0,62}$/
/** Template entries never copied into a workspace: they are installed or generated there. */
const templateSkips = new Set(['node_modules', 'dist', '.git'])

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
   * `auto`: as root, each box's workspace and data folder live on a filesystem image of
   * DEVBOX_DISK_MB, and each production data folder on one of `appsDiskMb` (box-disk.ts); the
   * server passes it. `measured` (the default, for tests and tools that remove their folders
   * with `rm`): the box's folders are measured, production data is not limited.
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

export type LocalDriver = Omit<DevboxDriver, 'provision' | 'open'> & {
  provision: (packType: PackType, options?: { id?: string }) => Promise<LocalDevbox>
  open: (
    id: string,
    packType: PackType,
    options?: { env?: Record<string, string> },
  ) => Promise<LocalDevbox>
  /** True when commands and dev servers run under bubblewrap. */
  sandboxed: boolean
  /** What confines boxes on this machine, and the limits each box gets. */
  enforcement: Enforcement
  limits: BoxLimits
  /**
   * Starts a production server of a deploy in a sandbox of its own, confined like a dev box
   * (docs/architecture/devbox.md, "Production servers"); resolves once it answers its health
   * route, throws AppServerStartError otherwise.
   */
  startAppServer: StartAppServer
}

type AttachedBox = {
  box: LocalDevbox
  stopAll: AbortController
  release: () => Promise<void>
  owner: { uid: number; gid: number } | undefined
}

/**
 * Dev boxes as folders on this machine, each with a dev-server process
 * (docs/architecture/devbox.md).
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the driver's boxes and cache its methods share
export function createLocalDriver(options: LocalDriverOptions): LocalDriver {
  const logger = options.logger ?? silentLogger
  const rootDir = path.resolve(options.rootDir)
  const workspacesDir = path.join(rootDir, 'workspaces')
  const appDataDir = path.join(rootDir, 'data')
  mkdirSync(workspacesDir, { recursive: true })
  mkdirSync(appDataDir, { recursive: true })
  const disks = createBoxDisks({ rootDir, logger, mode: options.disk ?? 'measured' })
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
  const enforcement = sandbox.enforcement
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
  const attached = new Map<string, AttachedBox>()
  const appServers = createAppServerStarter({ sandbox, logger, disks, appsDiskMb })

  const workspacePathOf = (id: string) => {
    if (!boxIdPattern.test(id)) {
      throw new Error(
        `Invalid dev box id ${JSON.stringify(id)}: use lowercase letters, digits and dashes`,
      )
    }
    return path.join(workspacesDir, id)
  }
  const templateDirectoryOf = (packType: PackType) => {
    const directory = path.resolve(options.templatesDir, packType)
    if (!/^[a-z0-9-]+$/.test(packType) || !existsSync(path.join(directory, 'package.json'))) {
      throw new Error(
        `No template for pack type ${JSON.stringify(packType)} in ${options.templatesDir}`,
      )
    }
    return directory
  }

  const diskTargets = (id: string) => ({
    workspacePath: workspacePathOf(id),
    dataPath: path.join(appDataDir, id),
  })
  /** A box's node_modules layer: on its image when it has one, else `{rootDir}/layers/{id}`. */
  const layersOf = (id: string, disk: BoxDiskUsage): DependencyLayers =>
    layersIn(
      disk.layersPath
        ? path.join(disk.layersPath, 'node_modules')
        : path.join(rootDir, 'layers', id),
    )
  /** A measured box counts its upper layer too (`du -x` does not enter the overlay). */
  const withLayers = (id: string, disk: BoxDiskUsage): BoxDiskUsage =>
    disk.enforcedBy === 'measurement' && !disk.layersPath
      ? measuredDisk(
          [workspacePathOf(id), path.join(appDataDir, id), layersOf(id, disk).upper],
          disk.limitMb,
        )
      : disk

  const attach = async (
    id: string,
    packType: PackType,
    disk: BoxDiskUsage,
  ): Promise<AttachedBox> => {
    const workspacePath = await realpath(workspacePathOf(id))
    // The preview's database lives here, outside the workspace (docs/architecture/devbox.md).
    const dataPath = path.join(appDataDir, id)
    await mkdir(dataPath, { recursive: true, mode: 0o700 })
    const boxSandbox = sandbox.forBox({ boxId: id, workspacePath, dataPath })
    if (boxSandbox.owner) {
      const modules = path.join(workspacePath, 'node_modules')
      // A workspace handed to another uid is chowned whole: never through the shared lower.
      if (
        dependencies.isMounted(modules) &&
        (await stat(workspacePath)).uid !== boxSandbox.owner.uid
      ) {
        await dependencies.remove(modules)
      }
      await ensureOwner(workspacePath, boxSandbox.owner)
      await ensureOwner(dataPath, boxSandbox.owner)
    }
    const stopAll = new AbortController()
    const exec = createBoxExec({
      workspacePath,
      sandbox: boxSandbox,
      stopAll: stopAll.signal,
      diskLimitMb: sandbox.limits.diskMb,
      disk,
    })
    const files = createWorkspaceFiles(workspacePath, { owner: boxSandbox.owner })
    const box: LocalDevbox = {
      id,
      packType,
      workspacePath,
      dataPath,
      files: {
        ...files,
        write: async (relativePath, content) => {
          await disk.assertSpace()
          await files.write(relativePath, content).catch((error: unknown) => {
            if (!isNoSpaceError(error)) throw error
            throw new WorkspacePathError(diskFullMessage(disk.limitMb), 'disk-full')
          })
        },
      },
      exec,
      devServer: createDevServer({
        boxId: id,
        workspacePath,
        sandbox: boxSandbox,
        logger,
        env: options.devServerEnv,
      }),
      checkpoint: (message) => checkpointWorkspace(exec, message),
      suspend: async () => {
        await box.devServer.stop()
        // The next start or command prepares the sandbox again (BoxSandbox.prepare).
        await boxSandbox.release()
      },
    }
    const entry = { box, stopAll, release: boxSandbox.release, owner: boxSandbox.owner }
    attached.set(id, entry)
    return entry
  }

  const detach = async (id: string) => {
    const entry = attached.get(id)
    if (!entry) return
    attached.delete(id)
    entry.stopAll.abort()
    await entry.box.devServer.stop()
    await entry.release()
  }

  const destroy = async (id: string) => {
    const workspacePath = workspacePathOf(id)
    await detach(id)
    // The overlay first: nothing below is deleted through it (its lower is shared).
    await dependencies.remove(path.join(workspacePath, 'node_modules'))
    // Its image goes whole: nothing to delete file by file on it.
    await disks.destroy(id, diskTargets(id))
    await rm(path.join(rootDir, 'layers', id), { recursive: true, force: true, maxRetries: 3 })
    await rm(workspacePath, { recursive: true, force: true, maxRetries: 3 })
    await rm(path.join(appDataDir, id), { recursive: true, force: true, maxRetries: 3 })
  }

  return {
    sandboxed: sandbox.enabled,
    enforcement,
    limits: sandbox.limits,

    provision: async (packType, provisionOptions = {}) => {
      const startedAt = Date.now()
      const timings: Record<string, number> = {}
      let phaseStartedAt = startedAt
      const endPhase = (name: string) => {
        timings[name] = Date.now() - phaseStartedAt
        phaseStartedAt = Date.now()
      }
      const id = provisionOptions.id ?? crypto.randomUUID()
      const workspacePath = workspacePathOf(id)
      const templateDirectory = templateDirectoryOf(packType)
      const cacheDirectory = await cache.prepare(packType, templateDirectory)
      endPhase('dependenciesMs')
      await mkdir(workspacesDir, { recursive: true })
      try {
        await mkdir(workspacePath)
      } catch (error) {
        throw new Error(`Dev box ${id} already exists`, { cause: error })
      }
      try {
        const madeDisk = await disks.create(id, sandbox.limits.diskMb, diskTargets(id))
        const layers = layersOf(id, madeDisk)
        const shared = dependencies.enabled
        const disk = shared ? withLayers(id, madeDisk) : madeDisk
        endPhase('diskMs')
        await cp(templateDirectory, workspacePath, {
          recursive: true,
          filter: (source) =>
            !templateSkips.has(path.relative(templateDirectory, source).split(path.sep)[0] ?? ''),
        })
        if (!existsSync(path.join(workspacePath, 'package-lock.json'))) {
          await copyFile(
            path.join(cacheDirectory, 'package-lock.json'),
            path.join(workspacePath, 'package-lock.json'),
          )
        }
        const copyDependencies = () =>
          // A real copy, not hard links: app code may write into node_modules, and a shared
          // inode would let one box change another box's dependencies.
          runFile('cp', [
            '-a',
            '--reflink=auto',
            path.join(cacheDirectory, 'node_modules'),
            workspacePath,
          ])
        // Shared: an empty mount point now, the overlay once the workspace has its owner.
        if (shared) await mkdir(path.join(workspacePath, 'node_modules'))
        else await copyDependencies()
        endPhase('copyMs')
        await initializeRepository(workspacePath, packType)
        endPhase('gitMs')
        const { box, owner } = await attach(id, packType, disk)
        if (shared) {
          await dependencies
            .mount({
              layers,
              cacheFolder: cacheDirectory,
              target: path.join(workspacePath, 'node_modules'),
              owner,
            })
            .catch(async (error: Error) => {
              logger.warn('Could not share the dependencies with a new box; copying them', {
                id,
                error: error.message,
              })
              await dependencies.remove(path.join(workspacePath, 'node_modules'), layers.folder)
              await rm(path.join(workspacePath, 'node_modules'), { recursive: true, force: true })
              await copyDependencies()
              if (owner) {
                await runFile('chown', [
                  '-R',
                  '--no-dereference',
                  `${owner.uid}:${owner.gid}`,
                  path.join(workspacePath, 'node_modules'),
                ])
              }
            })
          endPhase('mountMs')
        }
        await box.devServer.start()
        endPhase('devServerMs')
        logger.info('Provisioned dev box', {
          id,
          packType,
          durationMs: Date.now() - startedAt,
          ...timings,
        })
        return box
      } catch (error) {
        await destroy(id).catch(() => {})
        throw error
      }
    },

    open: async (id, packType, openOptions: { env?: Record<string, string> } = {}) => {
      const existing = attached.get(id)
      if (existing) {
        if (openOptions.env) await existing.box.devServer.setEnvironment?.(openOptions.env)
        await existing.box.devServer.start()
        return existing.box
      }
      // After a reboot the workspace is an empty folder until its image is mounted again.
      const openedDisk = await disks.open(id, sandbox.limits.diskMb, diskTargets(id))
      const disk = lstatExists(path.join(layersOf(id, openedDisk).folder, 'lower'))
        ? withLayers(id, openedDisk)
        : openedDisk
      if (!existsSync(path.join(workspacePathOf(id), '.git'))) {
        throw new Error(`Dev box ${id} has no workspace in ${workspacesDir}; provision a new one`)
      }
      const { box, owner } = await attach(id, packType, disk)
      await dependencies
        .reopen({
          layers: layersOf(id, disk),
          target: path.join(workspacePathOf(id), 'node_modules'),
          owner,
        })
        .catch((error: Error) => {
          // `npm install` in the box makes a node_modules of its own in the empty folder.
          logger.warn('Could not mount the shared dependencies of a box again', {
            id,
            error: error.message,
          })
        })
      // Not started yet, so the server starts once, with its environment.
      if (openOptions.env) await box.devServer.setEnvironment?.(openOptions.env)
      // The workspace is intact even when app code broke the dev server; restarts keep trying.
      await box.devServer.start().catch((error: Error) => {
        logger.warn('Dev server did not start when reopening the box', { id, error: error.message })
      })
      return box
    },

    destroy,

    startAppServer: appServers.start,

    shutdown: async () => {
      await Promise.all([...[...attached.keys()].map((id) => detach(id)), appServers.stopAll()])
    },
  }
}

/** True when the path exists, without following a link (the layer's `lower`). */
function lstatExists(entryPath: string): boolean {
  try {
    lstatSync(entryPath)
    return true
  } catch {
    return false
  }
}

async function initializeRepository(workspacePath: string, packType: PackType) {
  const git = (...args: string[]) =>
    runFile('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
      cwd: workspacePath,
      env: boxEnvironment(workspacePath, { GIT_CONFIG_NOSYSTEM: '1' }),
    })
  await git('init', '-q', '-b', 'main')
  await git('config', 'user.name', 'Sprout')
  await git('config', 'user.email', 'sprout@localhost')
  await git('add', '-A')
  await git('commit', '-q', '-m', `Start from the ${packType} template`)
}
