// A box's node_modules without a copy (docs/decisions/022-shared-dependencies.md): the prepared
// cache's node_modules, read-only, under a writable layer of the box's own, as an overlay mount.
import { execFile, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs'
import { chmod, chown, mkdir, readlink, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import type { DevboxLogger } from '../../../logger.ts'
import { checkedOnce, checkOnFilesystem, rememberCheck } from '../machine-checks.ts'
import { isMountPoint, unmountUnder } from '../sandbox/box-disk.ts'

const runFile = promisify(execFile)
/** nosuid/nodev like the disk images; the box's uid owns what it writes in the upper layer. */
const overlayOptions = 'nosuid,nodev,noatime'
/**
 * The layer folder's link to the cache's node_modules. The overlay is mounted with these relative
 * names, all `/proc/self/mountinfo` shows (in the box too): no host path, box id or cache version,
 * and no character that means something in the option string.
 */
const lowerLink = 'lower'
const layerOptions = `lowerdir=${lowerLink},upperdir=upper,workdir=work`
/** Written in a cache folder once its node_modules is root's and writable by every box uid. */
const sharedMarker = '.sprout-shared-with-box-uids'

/**
 * `shared`: each box's node_modules is an overlay of the prepared cache's (read-only) and a
 * writable layer of its own, where root and overlayfs allow it; `copied`: a real copy per box.
 */
export type DependencyMode = 'shared' | 'copied'

export type DependencySupport = { shared: true } | { shared: false; reason: string }

/**
 * Whether overlays can be mounted here: Linux, root, and a probe mount of overlayfs under
 * `directory` (in a mount namespace of its own, so a kill meanwhile leaves nothing behind).
 * Probed once per process and filesystem; takes the answer `checkDependencySupport` found, if it
 * ran.
 */
export function detectDependencySupport(
  mode: DependencyMode,
  directory: string,
): DependencySupport {
  const refused = refusedWithoutProbe(mode)
  if (refused) return refused
  return checkedOnce(overlayCheckKey(mode, directory), () => {
    const probe = overlayProbe(directory)
    try {
      probe.create()
      return probe.answer(
        spawnSync(probe.command, probe.args, {
          cwd: probe.folder,
          encoding: 'utf8',
          timeout: 10_000,
        }),
      )
    } catch (error) {
      return { shared: false, reason: (error as Error).message }
    } finally {
      probe.remove()
    }
  })
}

const overlayCheckKey = (mode: DependencyMode, directory: string) =>
  checkOnFilesystem(`overlay:${mode}`, directory)

/**
 * detectDependencySupport's check without blocking: the server runs it while it opens its
 * database, and the driver made afterwards takes the answer (docs/architecture/devbox.md
 * "Sandbox").
 */
export async function checkDependencySupport(
  mode: DependencyMode,
  directory: string,
): Promise<void> {
  let support = refusedWithoutProbe(mode)
  if (!support) {
    const probe = overlayProbe(directory)
    try {
      probe.create()
      support = probe.answer(
        await runFile(probe.command, probe.args, {
          cwd: probe.folder,
          encoding: 'utf8',
          timeout: 10_000,
        }).then(
          () => ({ status: 0 }),
          (error: { code?: unknown; stderr?: string; message?: string }) => ({
            status: typeof error.code === 'number' ? error.code : null,
            stderr: error.stderr,
            error: { message: error.message ?? '' },
          }),
        ),
      )
    } catch (error) {
      support = { shared: false, reason: (error as Error).message }
    } finally {
      probe.remove()
    }
  }
  rememberCheck(overlayCheckKey(mode, directory), support)
}

function refusedWithoutProbe(mode: DependencyMode): DependencySupport | undefined {
  if (mode === 'copied') return { shared: false, reason: 'copies asked for' }
  if (process.platform !== 'linux') return { shared: false, reason: 'not Linux' }
  if (process.getuid?.() !== 0) return { shared: false, reason: 'needs root' }
  return undefined
}

/** The probe's folders and mount command; no look at /proc/filesystems: the mount loads the module. */
function overlayProbe(directory: string) {
  const folder = path.join(directory, `.overlay-probe-${process.pid}`)
  return {
    folder,
    command: 'unshare',
    args: [
      '--mount',
      '--propagation',
      'private',
      'mount',
      '-t',
      'overlay',
      'overlay',
      '-o',
      layerOptions,
      'merged',
    ],
    create: () => {
      for (const name of ['lower-folder', 'upper', 'work', 'merged']) {
        mkdirSync(path.join(folder, name), { recursive: true, mode: 0o700 })
      }
      symlinkSync(path.join(folder, 'lower-folder'), path.join(folder, lowerLink))
    },
    answer: (mounted: {
      status: number | null
      stderr?: string | null
      error?: { message: string }
    }): DependencySupport =>
      mounted.status === 0
        ? { shared: true }
        : {
            shared: false,
            reason: `cannot mount an overlay: ${mounted.stderr?.trim() || mounted.error?.message || mounted.status}`,
          },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  }
}

/** A box's writable layer: `upper` and overlayfs's `work`, and the link to its lower. */
export type DependencyLayers = { folder: string; upper: string; work: string }

export function layersIn(folder: string): DependencyLayers {
  return { folder, upper: path.join(folder, 'upper'), work: path.join(folder, 'work') }
}

export type SharedDependencies = ReturnType<typeof createSharedDependencies>

/**
 * Mounts, re-mounts and removes boxes' node_modules overlays. The lower folder is a prepared
 * cache folder's node_modules (dependency-cache.ts); it is never written: overlayfs copies a
 * file up into the box's own upper layer before changing it, and a deletion is a whiteout there.
 */
export function createSharedDependencies(input: {
  mode: DependencyMode
  /** Where boxes without a disk image keep their layers (`{rootDir}/layers/{id}`). */
  rootDir: string
  logger: DevboxLogger
}) {
  const support = detectDependencySupport(input.mode, input.rootDir)
  const handOvers = new Map<string, Promise<void>>()

  /**
   * Copy-up keeps a lower file's owner and mode, and every box has a uid of its own (issue 29), so
   * the shared lower becomes root's and writable by all (`a+rwX`): any box may replace or delete
   * packages, in its own upper only (once per cache folder, marker file). The cache folder itself
   * becomes root's 0700, so no box uid reaches it outside a box (inside, no path leads there:
   * box-root.ts).
   */
  const handOver = (cacheFolder: string, owner: { uid: number; gid: number } | undefined) => {
    if (!owner) return Promise.resolve()
    const marker = path.join(cacheFolder, sharedMarker)
    if (existsSync(marker)) return Promise.resolve()
    let pending = handOvers.get(marker)
    if (!pending) {
      pending = (async () => {
        const startedAt = Date.now()
        await chmod(cacheFolder, 0o700)
        const modules = path.join(cacheFolder, 'node_modules')
        await runFile('chown', ['-R', '--no-dereference', '0:0', modules])
        // Links met on the way are not followed (GNU chmod -R).
        await runFile('chmod', ['-R', 'a+rwX', modules])
        await writeFile(marker, new Date().toISOString())
        input.logger.info('Shared the dependencies with every box uid', {
          cacheFolder,
          durationMs: Date.now() - startedAt,
        })
      })()
      handOvers.set(marker, pending)
      pending.finally(() => handOvers.delete(marker)).catch(() => {})
    }
    return pending
  }

  const mount = async (
    layers: DependencyLayers,
    target: string,
    owner: { uid: number; gid: number } | undefined,
  ) => {
    if (isMountPoint(target)) return
    await mkdir(target, { recursive: true })
    await mkdir(layers.upper, { recursive: true, mode: 0o755 })
    await mkdir(layers.work, { recursive: true, mode: 0o700 })
    // The upper root is what the box sees as its node_modules folder itself.
    if (owner) await chown(layers.upper, owner.uid, owner.gid)
    await runFile(
      'mount',
      ['-t', 'overlay', 'overlay', '-o', `${layerOptions},${overlayOptions}`, target],
      { cwd: layers.folder },
    )
  }

  return {
    support,
    enabled: support.shared,

    /**
     * A new box's node_modules: `cacheFolder/node_modules` under the box's layer, mounted at
     * `target` (`{workspace}/node_modules`, an empty folder), the lower linked for `reopen`.
     */
    mount: async (input: {
      layers: DependencyLayers
      cacheFolder: string
      target: string
      owner: { uid: number; gid: number } | undefined
    }) => {
      await handOver(input.cacheFolder, input.owner)
      await mkdir(input.layers.folder, { recursive: true, mode: 0o700 })
      const link = path.join(input.layers.folder, lowerLink)
      await rm(link, { force: true })
      await symlink(path.join(input.cacheFolder, 'node_modules'), link)
      await mount(input.layers, input.target, input.owner)
    },

    /**
     * After a restart or reboot: mounts the box's overlay again unless it still is. False for a
     * box whose node_modules is a copy (no layers recorded); throws when its lower is gone.
     */
    reopen: async (input: {
      layers: DependencyLayers
      target: string
      owner: { uid: number; gid: number } | undefined
    }): Promise<boolean> => {
      const lower = await readlink(path.join(input.layers.folder, lowerLink)).catch(() => undefined)
      if (lower === undefined) return false
      if (isMountPoint(input.target)) return true
      if (!support.shared) throw new Error(`cannot mount overlays here (${support.reason})`)
      if (!existsSync(lower)) throw new Error(`its shared dependencies ${lower} are gone`)
      await handOver(path.dirname(lower), input.owner)
      await mount(input.layers, input.target, input.owner)
      return true
    },

    /** Whether `target` is an overlay now (a box made with shared dependencies, mounted). */
    isMounted: (target: string) => isMountPoint(target),

    /** Unmounts the overlay (lazily when busy) and, when given, deletes the box's layer folder. */
    remove: async (target: string, layersFolder?: string) => {
      await unmountUnder(target)
      if (layersFolder) await rm(layersFolder, { recursive: true, force: true, maxRetries: 3 })
    },
  }
}
