import { type BoxDisksOptions, createBoxDisksState, serialized } from './box-disks-state.ts'
import { createBoxDisk } from './create-box-disk.ts'
import { openAppDataDisk } from './open-app-data-disk.ts'
import { openBoxDisk } from './open-box-disk.ts'
import { releaseBoxDisk, unmountBoxDisk } from './release-box-disk.ts'
import { releaseDisks, sweepLeftDisks } from './release-disks.ts'

export type BoxDisks = ReturnType<typeof createBoxDisks>

/**
 * Per-box ext4 images of DEVBOX_DISK_MB (docs/architecture/devbox.md "Disk"), bound onto the usual
 * folders so no path changes; `layers/` (shared-dependencies.ts) counts too. Production data gets
 * an APPS_DISK_MB image (`deploys/{app}/data.img`). Elsewhere limits are measured.
 */
export function createBoxDisks(options: BoxDisksOptions) {
  const state = createBoxDisksState(options)
  const orphaned = state.swept
  state.swept = orphaned.then(async (count) => count + (await sweepLeftDisks(state)))
  type Targets = { workspacePath: string; dataPath: string }
  return {
    support: state.support,
    filesystem: state.support.filesystem,
    create: (id: string, limitMb: number, targets: Targets) =>
      serialized(state, id, () => createBoxDisk(state, id, limitMb, targets)),
    open: (id: string, limitMb: number, targets: Targets) =>
      serialized(state, id, () => openBoxDisk(state, id, limitMb, targets)),
    /** Unmounts the box's folders and image, kept for the next `open` here or elsewhere. */
    close: (id: string, targets: Targets) =>
      serialized(state, id, () => unmountBoxDisk(state, id, targets)),
    /** Unmounts the box's folders and image (lazily when busy) and deletes the image. */
    destroy: (id: string, targets: Targets) =>
      serialized(state, id, () => releaseBoxDisk(state, id, targets)),
    openAppData: (dataPath: string, limitMb: number) =>
      serialized(state, dataPath, () => openAppDataDisk(state, dataPath, limitMb)),
    /**
     * At a stop, once nothing runs on them: every mount of the driver's undone, so no loop device
     * of its images stays attached (release-disks.ts); the next `open` mounts a box's again.
     */
    releaseAll: async () => {
      await state.swept
      await Promise.allSettled([...state.locks.values()])
      await releaseDisks(state)
    },
  }
}
