// Long file: one place owns the disk images of dev boxes and production data folders — making,
// mounting, reusing after a restart, unmounting — and what each box is told when its disk is full.
import { execFile, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { mkdir, open, readdir, rename, rm, rmdir, stat, statfs, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { WorkspacePathError } from '../../devbox-driver.ts'
import { findSystemTool } from '../../find-system-tool.ts'
import { isInside } from '../../is-inside.ts'
import type { DevboxLogger } from '../../logger.ts'
import { diskLimitMessage, measureBoxBytes } from './workspace-usage.ts'

const runFile = promisify(execFile)
const mebibyte = 1024 * 1024
/** Images a driver keeps at most; past it new boxes fall back to the measured limit (logged). */
export const defaultMaxDiskImages = 4096
/**
 * A small, fast ext4: no journal (an image is one box's, checked with e2fsck -p before it is
 * mounted again), no reserved blocks, inode tables initialised lazily, nothing discarded.
 */
const mkfsOptions = [
  '-q',
  '-F',
  '-m',
  '0',
  '-E',
  'lazy_itable_init=1,lazy_journal_init=1,nodiscard',
  '-O',
  '^has_journal',
]
/** `discard` gives deleted files' blocks back to the host: a sparse image only holds what is used. */
const mountOptions = 'loop,nosuid,nodev,noatime,discard'

export type DiskMode = 'auto' | 'measured'

/** How the disk limit of boxes is enforced on this machine. */
export type DiskSupport =
  | { filesystem: true; tools: DiskTools }
  | { filesystem: false; reason: string }

type DiskTools = { mkfs: string; mount: string; umount: string; e2fsck?: string }

/** The disk of one box (or one production data folder) as the code that writes to it sees it. */
export type BoxDiskUsage = {
  limitMb: number
  /** `filesystem`: an image of `limitMb` refuses writes itself; `measurement`: `du`, checked. */
  enforcedBy: 'filesystem' | 'measurement'
  /** Bytes used by the workspace and the data folder. */
  usedBytes: () => Promise<number>
  /** Throws a WorkspacePathError ('disk-full') while a measured box is over its limit. */
  assertSpace: () => Promise<void>
  /** After a command: the line the builder shows when the disk is (or just was) full. */
  fullNotice: (output: string) => Promise<string | undefined>
  /**
   * A dev box's image only: `layers/` beside `workspace/` and `data/` at the image's root, for
   * writable layers (its node_modules overlay's upper folder) that count against the box's limit
   * but that no file tool or checkpoint sees.
   */
  layersPath?: string
}

/**
 * Whether each box can get a filesystem image of its own: root, loop devices (loop-control
 * creates them on demand) and mkfs.ext4. Otherwise the limit is measured. Takes the answer
 * `checkDiskSupport` found for the same folder, if it ran.
 */
export function detectDiskSupport(mode: DiskMode = 'auto', probeDirectory?: string): DiskSupport {
  const checked = probeDirectory ? takeChecked(mode, probeDirectory) : undefined
  if (checked) return checked
  const support = diskToolsOf(mode)
  if (!support.filesystem || !probeDirectory) return support
  const failure = probeImage(support.tools, probeDirectory)
  return failure ? { filesystem: false, reason: failure } : support
}

/** Answers of checkDiskSupport, each taken by the next detectDiskSupport of its mode and folder. */
const checkedSupport = new Map<string, DiskSupport>()
const checkedKey = (mode: DiskMode, directory: string) => `${mode}:${path.resolve(directory)}`
function takeChecked(mode: DiskMode, directory: string): DiskSupport | undefined {
  const key = checkedKey(mode, directory)
  const checked = checkedSupport.get(key)
  checkedSupport.delete(key)
  return checked
}

/**
 * detectDiskSupport's check without blocking: the server runs it while it opens its database,
 * and the driver made afterwards takes the answer (docs/architecture/devbox.md "Sandbox").
 */
export async function checkDiskSupport(mode: DiskMode, probeDirectory: string): Promise<void> {
  const support = diskToolsOf(mode)
  const failure = support.filesystem
    ? await probeImageInBackground(support.tools, probeDirectory)
    : undefined
  checkedSupport.set(
    checkedKey(mode, probeDirectory),
    failure ? { filesystem: false, reason: failure } : support,
  )
}

function diskToolsOf(mode: DiskMode): DiskSupport {
  if (mode === 'measured') return { filesystem: false, reason: 'measured limit asked for' }
  if (process.platform !== 'linux') return { filesystem: false, reason: 'not Linux' }
  if (process.getuid?.() !== 0) return { filesystem: false, reason: 'needs root' }
  if (!existsSync('/dev/loop-control')) return { filesystem: false, reason: 'no loop devices' }
  const mkfs = findSystemTool('mkfs.ext4')
  const mount = findSystemTool('mount')
  const umount = findSystemTool('umount')
  if (!mkfs || !mount || !umount) {
    return { filesystem: false, reason: 'mkfs.ext4, mount or umount missing' }
  }
  return { filesystem: true, tools: { mkfs, mount, umount, e2fsck: findSystemTool('e2fsck') } }
}

type ProbeCommand = { command: string; args: string[] }
type ProbeResult = { status: number | null; stderr: string }

/**
 * The probe's image and commands: make a tiny image where the images will live, then mount and
 * unmount it (a container may have root and loop devices but no right to mount); in a mount
 * namespace of its own where possible, so a kill meanwhile leaves no mount behind.
 */
function probePlan(tools: DiskTools, directory: string) {
  // The name sweepOrphanedImages knows; checkDiskSupport is awaited before any detection.
  const name = `.probe-${process.pid}`
  const image = path.join(directory, `${name}.img`)
  const mountPoint = path.join(directory, name)
  const unshare = findSystemTool('unshare')
  const mountAndUnmount = ['-o', mountOptions, image, mountPoint]
  const make: ProbeCommand = { command: tools.mkfs, args: [...mkfsOptions, image] }
  const mount: ProbeCommand = unshare
    ? {
        command: unshare,
        args: [
          '--mount',
          '--propagation',
          'private',
          '/bin/sh',
          '-c',
          '"$1" -o "$2" "$3" "$4" && "$5" "$4"',
          'sh',
          tools.mount,
          ...mountAndUnmount.slice(1),
          tools.umount,
        ],
      }
    : { command: tools.mount, args: mountAndUnmount }
  const unmount = unshare ? undefined : { command: tools.umount, args: [mountPoint] }
  return {
    make,
    mount,
    unmount,
    create: () => {
      mkdirSync(mountPoint, { recursive: true, mode: 0o700 })
      writeFileSync(image, '', { mode: 0o600 })
      truncateSync(image, 4 * mebibyte)
    },
    madeFailure: (made: ProbeResult) =>
      made.status === 0 ? undefined : `mkfs.ext4 failed: ${made.stderr.trim() || made.status}`,
    mountFailure: (mounted: ProbeResult) =>
      mounted.status === 0 ? undefined : `cannot mount an image: ${mounted.stderr.trim()}`,
    remove: () => {
      rmSync(image, { force: true })
      try {
        rmdirSync(mountPoint)
      } catch {}
    },
  }
}

/** Runs the probe (about 30 ms on an idle machine); returns why it failed, if it did. */
function probeImage(tools: DiskTools, directory: string): string | undefined {
  const plan = probePlan(tools, directory)
  const run = ({ command, args }: ProbeCommand) =>
    spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 })
  try {
    plan.create()
    const failure = plan.madeFailure(run(plan.make)) ?? plan.mountFailure(run(plan.mount))
    if (failure) return failure
    if (plan.unmount) run(plan.unmount)
    return undefined
  } catch (error) {
    return (error as Error).message
  } finally {
    plan.remove()
  }
}

/** The same probe with the commands run asynchronously. */
async function probeImageInBackground(
  tools: DiskTools,
  directory: string,
): Promise<string | undefined> {
  const plan = probePlan(tools, directory)
  const run = ({ command, args }: ProbeCommand): Promise<ProbeResult> =>
    runFile(command, args, { encoding: 'utf8', timeout: 10_000 }).then(
      (done) => ({ status: 0, stderr: done.stderr }),
      (error: { code?: unknown; stderr?: string }) => ({
        status: typeof error.code === 'number' ? error.code : null,
        stderr: error.stderr ?? String(error.code ?? ''),
      }),
    )
  try {
    plan.create()
    const failure =
      plan.madeFailure(await run(plan.make)) ?? plan.mountFailure(await run(plan.mount))
    if (failure) return failure
    if (plan.unmount) await run(plan.unmount)
    return undefined
  } catch (error) {
    return (error as Error).message
  } finally {
    plan.remove()
  }
}

/** The `disk:` line of the driver's enforcement (start-up log, the admin's Devbox Pool tab). */
export function describeDiskEnforcement(
  support: DiskSupport,
  limits: { diskMb: number; appsDiskMb: number },
): string {
  const sizes = `${limits.diskMb} MB per box (workspace and data folder), ${limits.appsDiskMb} MB per production data folder`
  return support.filesystem
    ? `${sizes}: own ext4 image each, enforced by the filesystem`
    : `${sizes}: box measured before each command and write and every second during commands; production data not limited (${support.reason})`
}

/** The message a full disk gives the builder (docs/product/limits.md "Disk of an app"). */
export function diskFullMessage(limitMb: number, setting = 'DEVBOX_DISK_MB'): string {
  return `The app's disk is full (${limitMb.toLocaleString('en-US')} MB, ${setting}, for its workspace and data folder): delete files (build output, large downloads, caches) to free space; writes fail with "No space left on device" until then.`
}

const noSpacePattern = /No space left on device|ENOSPC|Disk quota exceeded|EDQUOT/

/** Mounts of this mount namespace (`/proc/self/mountinfo`): device and mount point, decoded. */
function mountInfo(): { device: string; mountPoint: string }[] {
  let text: string
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .map((line) => line.split(' '))
    .filter((fields) => fields[2] !== undefined && fields[4] !== undefined)
    .map((fields) => ({
      device: fields[2] ?? '',
      mountPoint: (fields[4] ?? '').replace(/\\([0-7]{3})/g, (_, octal: string) =>
        String.fromCharCode(Number.parseInt(octal, 8)),
      ),
    }))
}

/** Mount points of this mount namespace, octal escapes (`\\040` for a space) decoded. */
export function currentMountPoints(): string[] {
  return mountInfo().map((entry) => entry.mountPoint)
}

export function isMountPoint(folder: string): boolean {
  return currentMountPoints().includes(path.resolve(folder))
}

/**
 * Unmounts every mount at or below `folder`, deepest first (lazily when busy: processes still
 * inside keep their files until they end, and the loop device is freed then). Safe without root
 * or mounts: nothing happens.
 */
export async function unmountUnder(folder: string): Promise<void> {
  const root = path.resolve(folder)
  for (let round = 0; round < 8; round += 1) {
    const inside = currentMountPoints()
      .filter((mountPoint) => isInside(mountPoint, root))
      .sort((first, second) => second.length - first.length)
    if (inside.length === 0) return
    for (const mountPoint of new Set(inside)) await unmount(mountPoint)
  }
}

/** Deletes a folder that may hold mounted images (a DATA_DIR, a driver's root): unmounted first. */
export async function removeWithMounts(folder: string): Promise<void> {
  await unmountUnder(folder)
  await rm(folder, { recursive: true, force: true })
}

async function unmount(mountPoint: string): Promise<void> {
  try {
    await runFile('umount', [mountPoint])
  } catch {
    await runFile('umount', ['-l', mountPoint]).catch(() => {})
  }
}

/** Backing files of Sprout's images (a box's, a production data folder's) once deleted. */
const orphanedImagePattern =
  /\/(disks\/[a-z0-9][a-z0-9-]{0,62}|disks\/\.probe-\d+|data)\.img \(deleted\)$/

/**
 * Unmounts images whose file was deleted while they were mounted (a DATA_DIR removed with `rm`
 * while Sprout was stopped, a test's folder): nothing can reach their files any more, and their
 * loop device is freed once they are unmounted.
 */
export async function sweepOrphanedImages(logger: DevboxLogger): Promise<number> {
  const devices = new Set<string>()
  let names: string[] = []
  try {
    names = readdirSync('/sys/block').filter((name) => /^loop\d+$/.test(name))
  } catch {
    return 0
  }
  for (const name of names) {
    try {
      const backing = readFileSync(`/sys/block/${name}/loop/backing_file`, 'utf8').trim()
      if (!orphanedImagePattern.test(backing)) continue
      devices.add(readFileSync(`/sys/block/${name}/dev`, 'utf8').trim())
    } catch {}
  }
  if (devices.size === 0) return 0
  const mountPoints = mountInfo()
    .filter((entry) => devices.has(entry.device))
    .map((entry) => entry.mountPoint)
    .sort((first, second) => second.length - first.length)
  for (const mountPoint of mountPoints) await unmount(mountPoint)
  if (mountPoints.length > 0) {
    logger.warn('Unmounted disk images whose files had been deleted', { mountPoints })
  }
  return mountPoints.length
}

/** A measured disk: `du` of the workspace and data folder (non-root installations). */
export function measuredDisk(paths: string[], limitMb: number): BoxDiskUsage {
  const usedBytes = () => measureBoxBytes(paths)
  return {
    limitMb,
    enforcedBy: 'measurement',
    usedBytes,
    assertSpace: async () => {
      const used = await usedBytes()
      if (used > limitMb * mebibyte) {
        throw new WorkspacePathError(diskLimitMessage(used, limitMb), 'disk-full')
      }
    },
    fullNotice: async () => {
      const used = await usedBytes()
      return used > limitMb * mebibyte ? diskLimitMessage(used, limitMb) : undefined
    },
  }
}

/** A disk enforced by its filesystem: usage is the filesystem's own count, read with statfs. */
export function filesystemDisk(
  volumePath: string,
  limitMb: number,
  setting?: string,
): BoxDiskUsage {
  const space = async () => {
    const stats = await statfs(volumePath)
    return {
      used: (stats.blocks - stats.bfree) * stats.bsize,
      free: stats.bavail * stats.bsize,
    }
  }
  return {
    limitMb,
    enforcedBy: 'filesystem',
    usedBytes: async () => (await space()).used,
    // The filesystem refuses writes itself; a command may still delete files, so none is refused.
    assertSpace: async () => {},
    fullNotice: async (output) => {
      const { free } = await space().catch(() => ({ free: Number.POSITIVE_INFINITY }))
      const limitBytes = limitMb * mebibyte
      const full = free < Math.max(mebibyte, limitBytes / 100)
      // ENOSPC in the output with space left: the command's failed write was cleaned up, or it
      // was /tmp's (a tmpfs of its own); only the first is this disk's.
      const justFull = noSpacePattern.test(output) && free < limitBytes / 10
      return full || justFull ? diskFullMessage(limitMb, setting) : undefined
    },
  }
}

/** True when an error of a file operation says the disk is full. */
export function isNoSpaceError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}

type Locks = Map<string, Promise<unknown>>

/** Runs `task` after any other task on the same key (two starts of one app's server at once). */
function serialized<T>(locks: Locks, key: string, task: () => Promise<T>): Promise<T> {
  const previous = locks.get(key) ?? Promise.resolve()
  const next = previous.catch(() => {}).then(task)
  locks.set(key, next)
  void next
    .catch(() => {})
    .finally(() => {
      if (locks.get(key) === next) locks.delete(key)
    })
  return next
}

export type BoxDisks = ReturnType<typeof createBoxDisks>

/**
 * Per-box filesystem images (docs/architecture/devbox.md "Disk"): as root, a dev box's workspace
 * and data folder live on one sparse ext4 image of DEVBOX_DISK_MB, `{rootDir}/disks/{id}.img`,
 * mounted at `{rootDir}/volumes/{id}` and bound onto `workspaces/{id}` and `data/{id}`, so every
 * other code path keeps its paths; its `layers/` holds the box's writable node_modules layer
 * (shared-dependencies.ts), on its limit but in no path a file tool or checkpoint walks. A production data folder gets an image of APPS_DISK_MB next
 * to it (`deploys/{app}/data.img`), mounted on it. Elsewhere the limit is measured.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the images' folders, tools and locks its methods share
export function createBoxDisks(options: {
  rootDir: string
  logger: DevboxLogger
  mode?: DiskMode
  maxImages?: number
}) {
  const disksDir = path.join(options.rootDir, 'disks')
  const support = detectDiskSupport(options.mode, disksDir)
  const logger = options.logger
  const volumesDir = path.join(options.rootDir, 'volumes')
  const maxImages = options.maxImages ?? defaultMaxDiskImages
  const locks: Locks = new Map()
  let warnedFull = false
  // Leftovers of folders removed while mounted are unmounted before any image is made.
  const swept = support.filesystem ? sweepOrphanedImages(logger).catch(() => 0) : Promise.resolve(0)

  const imageOf = (id: string) => path.join(disksDir, `${id}.img`)
  const volumeOf = (id: string) => path.join(volumesDir, id)

  const makeImage = async (tools: DiskTools, imagePath: string, sizeMb: number) => {
    const handle = await open(imagePath, 'wx', 0o600)
    try {
      await handle.truncate(sizeMb * mebibyte)
    } finally {
      await handle.close()
    }
    await runFile(tools.mkfs, [...mkfsOptions, imagePath])
  }

  /** Mounts an image unless it already is (a restart); checked first when it was not. */
  const mountImage = async (tools: DiskTools, imagePath: string, mountPoint: string) => {
    if (isMountPoint(mountPoint)) return
    await mkdir(mountPoint, { recursive: true, mode: 0o700 })
    if (tools.e2fsck) {
      // Exit codes 1 and 2 mean errors were corrected; 4 and up that some were left.
      await runFile(tools.e2fsck, ['-p', imagePath]).catch((error: { code?: number }) => {
        if (typeof error.code === 'number' && error.code < 4) return
        logger.warn('e2fsck left errors in a disk image; mounting it anyway', { imagePath })
      })
    }
    await runFile(tools.mount, ['-o', mountOptions, imagePath, mountPoint])
  }

  const bind = async (tools: DiskTools, source: string, target: string) => {
    if (isMountPoint(target)) return
    await mkdir(target, { recursive: true, mode: 0o700 })
    await runFile(tools.mount, ['--bind', source, target])
  }

  /** A box's image folders bound onto the paths every other code path uses. */
  const attach = async (
    tools: DiskTools,
    paths: { workspace: string; data: string },
    targets: { workspacePath: string; dataPath: string },
  ) => {
    await bind(tools, paths.workspace, targets.workspacePath)
    await bind(tools, paths.data, targets.dataPath)
  }

  const imageCount = () => {
    try {
      return readdirSync(disksDir).filter((name) => name.endsWith('.img')).length
    } catch {
      return 0
    }
  }

  const roomForImage = () => {
    if (imageCount() < maxImages) return true
    if (!warnedFull) {
      warnedFull = true
      logger.warn('Dev box disk images are at their maximum; new boxes get a measured limit', {
        maxImages,
      })
    }
    return false
  }

  const boxPaths = (id: string) => ({
    image: imageOf(id),
    volume: volumeOf(id),
    workspace: path.join(volumeOf(id), 'workspace'),
    data: path.join(volumeOf(id), 'data'),
    layers: path.join(volumeOf(id), 'layers'),
  })

  return {
    support,
    filesystem: support.filesystem,

    /**
     * A new box's disk: its image made and mounted, its (empty, just made) workspace and data
     * folders bound onto it. Measured when images are not possible here or too many exist.
     */
    create: (
      id: string,
      limitMb: number,
      targets: { workspacePath: string; dataPath: string },
    ): Promise<BoxDiskUsage> =>
      serialized(locks, id, async () => {
        await swept
        if (!support.filesystem || !roomForImage()) {
          return measuredDisk([targets.workspacePath, targets.dataPath], limitMb)
        }
        const paths = boxPaths(id)
        await mkdir(disksDir, { recursive: true, mode: 0o700 })
        try {
          await makeImage(support.tools, paths.image, limitMb)
          await mountImage(support.tools, paths.image, paths.volume)
          await mkdir(paths.workspace, { recursive: true })
          await mkdir(paths.data, { recursive: true, mode: 0o700 })
          await mkdir(paths.layers, { recursive: true, mode: 0o700 })
          await attach(support.tools, paths, targets)
        } catch (error) {
          // No loop device left, the host's disk full…: the box still works, measured.
          await releaseBox(id, targets).catch(() => {})
          logger.warn('Could not make a disk image for a dev box; its disk is measured instead', {
            id,
            error: (error as Error).message,
          })
          return measuredDisk([targets.workspacePath, targets.dataPath], limitMb)
        }
        return { ...filesystemDisk(paths.volume, limitMb), layersPath: paths.layers }
      }),

    /**
     * An existing box's disk after a restart or reboot: mounts reused when present, made again
     * when not. A box made before images (or while too many existed) keeps the measured limit.
     */
    open: (
      id: string,
      limitMb: number,
      targets: { workspacePath: string; dataPath: string },
    ): Promise<BoxDiskUsage> =>
      serialized(locks, id, async () => {
        await swept
        const paths = boxPaths(id)
        if (!support.filesystem || !existsSync(paths.image)) {
          return measuredDisk([targets.workspacePath, targets.dataPath], limitMb)
        }
        await mountImage(support.tools, paths.image, paths.volume)
        await attach(support.tools, paths, targets)
        const sizeMb = Math.round((await stat(paths.image)).size / mebibyte)
        return { ...filesystemDisk(paths.volume, sizeMb), layersPath: paths.layers }
      }),

    /** Unmounts the box's folders and image (lazily when busy) and deletes the image. */
    destroy: (id: string, targets: { workspacePath: string; dataPath: string }) =>
      serialized(locks, id, () => releaseBox(id, targets)),

    /**
     * A production data folder's disk (`{dataPath}.img` mounted on `dataPath`), made at its
     * server's first start; a folder that holds data from before is moved onto it.
     */
    openAppData: (dataPath: string, limitMb: number): Promise<BoxDiskUsage | undefined> =>
      serialized(locks, dataPath, async () => {
        if (!support.filesystem) return undefined
        await swept
        const imagePath = `${dataPath}.img`
        if (isMountPoint(dataPath)) return filesystemDisk(dataPath, limitMb, 'APPS_DISK_MB')
        if (!existsSync(imagePath)) {
          // Data too large for APPS_DISK_MB stays where it is; a larger setting tries again.
          if (existsSync(`${imagePath}.too-small-${limitMb}`) || !roomForImage()) return undefined
          await makeImage(support.tools, imagePath, limitMb)
          const earlier = await readdir(dataPath).catch(() => [])
          if (earlier.length > 0) {
            const moved = await moveOntoImage(support.tools, dataPath, imagePath, limitMb)
            if (!moved) return undefined
            return filesystemDisk(dataPath, limitMb, 'APPS_DISK_MB')
          }
          await mountImage(support.tools, imagePath, dataPath)
          await rmdir(path.join(dataPath, 'lost+found')).catch(() => {})
          return filesystemDisk(dataPath, limitMb, 'APPS_DISK_MB')
        }
        await mountImage(support.tools, imagePath, dataPath)
        return filesystemDisk(dataPath, limitMb, 'APPS_DISK_MB')
      }),
  }

  async function releaseBox(id: string, targets: { workspacePath: string; dataPath: string }) {
    const paths = boxPaths(id)
    await unmountUnder(targets.workspacePath)
    await unmountUnder(targets.dataPath)
    await unmountUnder(paths.volume)
    await rm(paths.image, { force: true })
    await rmdir(paths.volume).catch(() => {})
  }

  /** Data written before images existed is copied onto the new image; on failure it stays. */
  async function moveOntoImage(
    tools: DiskTools,
    dataPath: string,
    imagePath: string,
    limitMb: number,
  ) {
    const aside = `${dataPath}.before-image`
    await rename(dataPath, aside)
    try {
      await mountImage(tools, imagePath, dataPath)
      await rmdir(path.join(dataPath, 'lost+found')).catch(() => {})
      await runFile('cp', ['-a', `${aside}/.`, dataPath])
      await rm(aside, { recursive: true, force: true })
      return true
    } catch (error) {
      logger.warn('A production data folder does not fit its disk image; it stays unlimited', {
        dataPath,
        error: (error as Error).message,
      })
      await unmountUnder(dataPath)
      await rm(dataPath, { recursive: true, force: true })
      await rename(aside, dataPath)
      await rm(imagePath, { force: true })
      await writeFile(`${imagePath}.too-small-${limitMb}`, '').catch(() => {})
      return false
    }
  }
}
