import { mkdir } from 'node:fs/promises'
import { type BoxDiskUsage, filesystemDisk, measuredDisk } from './box-disk.ts'
import { type BoxDisksState, boxImagePaths } from './box-disks-state.ts'
import { bindImageFolders, makeImage, mountImage, roomForImage } from './disk-images.ts'
import { releaseBoxDisk } from './release-box-disk.ts'

/**
 * A new box's disk: its image made and mounted, its (empty, just made) workspace and data
 * folders bound onto it. Measured when images are not possible here or too many exist.
 */
export async function createBoxDisk(
  state: BoxDisksState,
  id: string,
  limitMb: number,
  targets: { workspacePath: string; dataPath: string },
): Promise<BoxDiskUsage> {
  const { support, logger } = state
  await state.swept
  if (!support.filesystem || !roomForImage(state)) {
    return measuredDisk([targets.workspacePath, targets.dataPath], limitMb)
  }
  const paths = boxImagePaths(state, id)
  await mkdir(state.disksDir, { recursive: true, mode: 0o700 })
  try {
    await makeImage(support.tools, paths.image, limitMb)
    await mountImage(support.tools, logger, paths.image, paths.volume)
    await mkdir(paths.workspace, { recursive: true })
    await mkdir(paths.data, { recursive: true, mode: 0o700 })
    await mkdir(paths.layers, { recursive: true, mode: 0o700 })
    await bindImageFolders(support.tools, paths, targets)
  } catch (error) {
    // No loop device left, the host's disk full…: the box still works, measured.
    await releaseBoxDisk(state, id, targets).catch(() => {})
    logger.warn('Could not make a disk image for a dev box; its disk is measured instead', {
      id,
      error: (error as Error).message,
    })
    return measuredDisk([targets.workspacePath, targets.dataPath], limitMb)
  }
  return { ...filesystemDisk(paths.volume, limitMb), layersPath: paths.layers }
}
