// Long file: one place finds whether boxes get disk images here, reads and undoes mounts, and
// says what each box is told when its disk is full; the images themselves are box-disks.ts's.
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
import { rm, statfs } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { findSystemTool } from '../../../find-system-tool.ts'
import { isInside } from '../../../is-inside.ts'
import type { DevboxLogger } from '../../../logger.ts'
import { checkedOnce, checkOnFilesystem, rememberCheck } from '../machine-checks.ts'
import { diskLimitMessage, measureBoxBytes } from '../workspace/workspace-usage.ts'

export const runFile = promisify(execFile)
export const mebibyte = 1024 * 1024
/** Images a driver keeps at most; past it new boxes fall back to the measured limit (logged). */
export const defaultMaxDiskImages = 4096
/**
 * A small, fast ext4: no journal (an image is one box's, checked with e2fsck -p before it is
 * mounted again), no reserved blocks, inode tables initialised lazily, nothing discarded.
 */
export const mkfsOptions = [
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
export const mountOptions = 'loop,nosuid,nodev,noatime,discard'

export type DiskMode = 'auto' | 'measured'

/** How the disk limit of boxes is enforced on this machine. */
export type DiskSupport =
  | { filesystem: true; tools: DiskTools }
  | { filesystem: false; reason: string }

export type DiskTools = { mkfs: string; mount: string; umount: string; e2fsck?: string }

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
 * creates them on demand) and mkfs.ext4. Otherwise the limit is measured. Probed once per process
 * and filesystem; takes the answer `checkDiskSupport` found, if it ran.
 */
export function detectDiskSupport(mode: DiskMode = 'auto', probeDirectory?: string): DiskSupport {
  const support = diskToolsOf(mode)
  if (!support.filesystem || !probeDirectory) return support
  return checkedOnce(diskCheckKey(mode, probeDirectory), () => {
    const failure = probeImage(support.tools, probeDirectory)
    return failure ? { filesystem: false, reason: failure } : support
  })
}

const diskCheckKey = (mode: DiskMode, directory: string) =>
  checkOnFilesystem(`disk-image:${mode}`, directory)

/**
 * detectDiskSupport's check without blocking: the server runs it while it opens its database,
 * and the driver made afterwards takes the answer (docs/architecture/devbox.md "Sandbox").
 */
export async function checkDiskSupport(mode: DiskMode, probeDirectory: string): Promise<void> {
  const support = diskToolsOf(mode)
  const failure = support.filesystem
    ? await probeImageInBackground(support.tools, probeDirectory)
    : undefined
  rememberCheck(
    diskCheckKey(mode, probeDirectory),
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
