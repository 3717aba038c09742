import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { type BoxDiskUsage, filesystemDisk, measuredDisk, mebibyte } from './box-disk.ts'
import { type BoxDisksState, boxImagePaths } from './box-disks-state.ts'
import { bindImageFolders, mountImage } from './disk-images.ts'

/**
 * An existing box's disk after a restart or reboot: mounts reused when present, made again
 * when not. A box made before images (or while too many existed) keeps the measured limit.
 */
export async function openBoxDisk(
  state: BoxDisksState,
  id: string,
  limitMb: number,
  targets: { workspacePath: string; dataPath: string },
): Promise<BoxDiskUsage> {
  const { support } = state
  await state.swept
  const paths = boxImagePaths(state, id)
  if (!support.filesystem || !existsSync(paths.image)) {
    return measuredDisk([targets.workspacePath, targets.dataPath], limitMb)
  }
  await mountImage(support.tools, state.logger, paths.image, paths.volume)
  await bindImageFolders(support.tools, paths, targets)
  const sizeMb = Math.round((await stat(paths.image)).size / mebibyte)
  return { ...filesystemDisk(paths.volume, sizeMb), layersPath: paths.layers }
}
