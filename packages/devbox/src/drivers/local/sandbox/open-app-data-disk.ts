import { existsSync } from 'node:fs'
import { readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  type BoxDiskUsage,
  type DiskTools,
  filesystemDisk,
  isMountPoint,
  runFile,
  unmountUnder,
} from './box-disk.ts'
import type { BoxDisksState } from './box-disks-state.ts'
import { makeImage, mountImage, roomForImage } from './disk-images.ts'

/**
 * A production data folder's disk (`{dataPath}.img` mounted on `dataPath`), made at its
 * server's first start; a folder that holds data from before is moved onto it.
 */
export async function openAppDataDisk(
  state: BoxDisksState,
  dataPath: string,
  limitMb: number,
): Promise<BoxDiskUsage | undefined> {
  const { support, logger } = state
  if (!support.filesystem) return undefined
  await state.swept
  state.appDataPaths.add(path.resolve(dataPath))
  const imagePath = `${dataPath}.img`
  if (isMountPoint(dataPath)) return filesystemDisk(dataPath, limitMb, 'APPS_DISK_MB')
  if (!existsSync(imagePath)) {
    // Data too large for APPS_DISK_MB stays where it is; a larger setting tries again.
    if (existsSync(`${imagePath}.too-small-${limitMb}`) || !roomForImage(state)) return undefined
    await makeImage(support.tools, imagePath, limitMb)
    const earlier = await readdir(dataPath).catch(() => [])
    if (earlier.length > 0) {
      const moved = await moveOntoImage(state, support.tools, { dataPath, imagePath, limitMb })
      if (!moved) return undefined
      return filesystemDisk(dataPath, limitMb, 'APPS_DISK_MB')
    }
    await mountImage(support.tools, logger, imagePath, dataPath)
    await rmdir(path.join(dataPath, 'lost+found')).catch(() => {})
    return filesystemDisk(dataPath, limitMb, 'APPS_DISK_MB')
  }
  await mountImage(support.tools, logger, imagePath, dataPath)
  return filesystemDisk(dataPath, limitMb, 'APPS_DISK_MB')
}

/** Data written before images existed is copied onto the new image; on failure it stays. */
async function moveOntoImage(
  state: BoxDisksState,
  tools: DiskTools,
  { dataPath, imagePath, limitMb }: { dataPath: string; imagePath: string; limitMb: number },
): Promise<boolean> {
  const aside = `${dataPath}.before-image`
  await rename(dataPath, aside)
  try {
    await mountImage(tools, state.logger, imagePath, dataPath)
    await rmdir(path.join(dataPath, 'lost+found')).catch(() => {})
    await runFile('cp', ['-a', `${aside}/.`, dataPath])
    await rm(aside, { recursive: true, force: true })
    return true
  } catch (error) {
    state.logger.warn('A production data folder does not fit its disk image; it stays unlimited', {
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
