import { readdirSync } from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import type { DevboxLogger } from '../../../logger.ts'
import {
  type DiskTools,
  isMountPoint,
  mebibyte,
  mkfsOptions,
  mountOptions,
  runFile,
} from './box-disk.ts'
import type { BoxDisksState } from './box-disks-state.ts'

/** A sparse image of `sizeMb`, formatted; it must not exist yet. */
export async function makeImage(tools: DiskTools, imagePath: string, sizeMb: number) {
  const handle = await open(imagePath, 'wx', 0o600)
  try {
    await handle.truncate(sizeMb * mebibyte)
  } finally {
    await handle.close()
  }
  await runFile(tools.mkfs, [...mkfsOptions, imagePath])
}

/** Mounts an image unless it already is (a restart); checked first when it was not. */
export async function mountImage(
  tools: DiskTools,
  logger: DevboxLogger,
  imagePath: string,
  mountPoint: string,
) {
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

/** A box's image folders bound onto the paths every other code path uses. */
export async function bindImageFolders(
  tools: DiskTools,
  paths: { workspace: string; data: string },
  targets: { workspacePath: string; dataPath: string },
) {
  await bind(tools, paths.workspace, targets.workspacePath)
  await bind(tools, paths.data, targets.dataPath)
}

async function bind(tools: DiskTools, source: string, target: string) {
  if (isMountPoint(target)) return
  await mkdir(target, { recursive: true, mode: 0o700 })
  await runFile(tools.mount, ['--bind', source, target])
}

/** False, logged once, when the driver already keeps its maximum of images. */
export function roomForImage(state: BoxDisksState): boolean {
  if (imageCount(state.disksDir) < state.maxImages) return true
  if (!state.warnedFull) {
    state.warnedFull = true
    state.logger.warn('Dev box disk images are at their maximum; new boxes get a measured limit', {
      maxImages: state.maxImages,
    })
  }
  return false
}

function imageCount(disksDir: string): number {
  try {
    return readdirSync(disksDir).filter((name) => name.endsWith('.img')).length
  } catch {
    return 0
  }
}
