import { rm, rmdir } from 'node:fs/promises'
import { unmountUnder } from './box-disk.ts'
import { type BoxDisksState, boxImagePaths } from './box-disks-state.ts'

/**
 * Unmounts the box's folders and image (lazily when busy), keeping the image: the next `open`,
 * here or on another instance, mounts it again.
 */
export async function unmountBoxDisk(
  state: BoxDisksState,
  id: string,
  targets: { workspacePath: string; dataPath: string },
): Promise<void> {
  await unmountUnder(targets.workspacePath)
  await unmountUnder(targets.dataPath)
  await unmountUnder(boxImagePaths(state, id).volume)
}

/** Unmounts the box's folders and image (lazily when busy) and deletes the image. */
export async function releaseBoxDisk(
  state: BoxDisksState,
  id: string,
  targets: { workspacePath: string; dataPath: string },
): Promise<void> {
  const paths = boxImagePaths(state, id)
  await unmountBoxDisk(state, id, targets)
  await rm(paths.image, { force: true })
  await rmdir(paths.volume).catch(() => {})
}
