import { type BoxDisksOptions, createBoxDisksState, serialized } from './box-disks-state.ts'
import { createBoxDisk } from './create-box-disk.ts'
import { openAppDataDisk } from './open-app-data-disk.ts'
import { openBoxDisk } from './open-box-disk.ts'
import { releaseBoxDisk } from './release-box-disk.ts'

export type BoxDisks = ReturnType<typeof createBoxDisks>

/**
 * Per-box filesystem images (docs/architecture/devbox.md "Disk"): as root, a dev box's workspace
 * and data folder live on one sparse ext4 image of DEVBOX_DISK_MB, `{rootDir}/disks/{id}.img`,
 * mounted at `{rootDir}/volumes/{id}` and bound onto `workspaces/{id}` and `data/{id}`, so every
 * other code path keeps its paths; its `layers/` holds the box's writable node_modules layer
 * (shared-dependencies.ts), on its limit but in no path a file tool or checkpoint walks. A production data folder gets an image of APPS_DISK_MB next
 * to it (`deploys/{app}/data.img`), mounted on it. Elsewhere the limit is measured.
 */
export function createBoxDisks(options: BoxDisksOptions) {
  const state = createBoxDisksState(options)
  type Targets = { workspacePath: string; dataPath: string }
  return {
    support: state.support,
    filesystem: state.support.filesystem,
    create: (id: string, limitMb: number, targets: Targets) =>
      serialized(state, id, () => createBoxDisk(state, id, limitMb, targets)),
    open: (id: string, limitMb: number, targets: Targets) =>
      serialized(state, id, () => openBoxDisk(state, id, limitMb, targets)),
    /** Unmounts the box's folders and image (lazily when busy) and deletes the image. */
    destroy: (id: string, targets: Targets) =>
      serialized(state, id, () => releaseBoxDisk(state, id, targets)),
    openAppData: (dataPath: string, limitMb: number) =>
      serialized(state, dataPath, () => openAppDataDisk(state, dataPath, limitMb)),
  }
}
