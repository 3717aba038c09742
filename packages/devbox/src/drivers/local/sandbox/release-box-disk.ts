import { rm, rmdir } from 'node:fs/promises'
import { unmountUnder } from './box-disk.ts'
import { type BoxDisksState, boxImagePaths } from './box-disks-state.ts'

/** Unmounts the box's folders and image (lazily when busy) and deletes the image. */
export async function releaseBoxDisk(
  state: BoxDisksState,
  id: string,
  targets: { workspacePath: string; dataPath: string },
): Promise<void> {
  const paths = boxImagePaths(state, id)
  await unmountUnder(targets.workspacePath)
  await unmountUnder(targets.dataPath)
  await unmountUnder(paths.volume)
  await rm(paths.image, { force: true })
  await rmdir(paths.volume).catch(() => {})
}
