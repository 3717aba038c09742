import path from 'node:path'
import type { DevboxLogger } from '../../../logger.ts'
import {
  type DiskMode,
  type DiskSupport,
  defaultMaxDiskImages,
  detectDiskSupport,
  sweepOrphanedImages,
} from './box-disk.ts'

export type BoxDisksOptions = {
  rootDir: string
  /** Holds the production data folders (`{app}/data` on `{app}/data.img`), when there are any. */
  deploysDir?: string
  logger: DevboxLogger
  mode?: DiskMode
  maxImages?: number
}

/** The images' folders, tools and locks, shared by the verbs of box-disks.ts. */
export type BoxDisksState = {
  disksDir: string
  volumesDir: string
  /** Where the boxes' workspaces and data folders are bound from their images. */
  workspacesDir: string
  appDataDir: string
  deploysDir: string | undefined
  /** Production data folders opened on an image by this driver, released at its stop. */
  appDataPaths: Set<string>
  support: DiskSupport
  logger: DevboxLogger
  maxImages: number
  /** One task at a time per box or data folder (two starts of one app's server at once). */
  locks: Map<string, Promise<unknown>>
  warnedFull: boolean
  /**
   * Before any image is mounted: leftovers of folders removed while mounted, and whatever a
   * killed server left mounted (release-disks.ts).
   */
  swept: Promise<number>
}

export function createBoxDisksState(options: BoxDisksOptions): BoxDisksState {
  const disksDir = path.join(options.rootDir, 'disks')
  const support = detectDiskSupport(options.mode, disksDir)
  const logger = options.logger
  return {
    disksDir,
    volumesDir: path.join(options.rootDir, 'volumes'),
    workspacesDir: path.join(options.rootDir, 'workspaces'),
    appDataDir: path.join(options.rootDir, 'data'),
    deploysDir: options.deploysDir && path.resolve(options.deploysDir),
    appDataPaths: new Set(),
    support,
    logger,
    maxImages: options.maxImages ?? defaultMaxDiskImages,
    locks: new Map(),
    warnedFull: false,
    // Then box-disks.ts adds what a killed server left (release-disks.ts).
    swept: support.filesystem ? sweepOrphanedImages(logger).catch(() => 0) : Promise.resolve(0),
  }
}

/** Runs `task` after any other task on the same key (two starts of one app's server at once). */
export function serialized<T>(
  state: BoxDisksState,
  key: string,
  task: () => Promise<T>,
): Promise<T> {
  const { locks } = state
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

/** Where a box's image lives, is mounted, and holds its workspace, data and layers. */
export function boxImagePaths(state: BoxDisksState, id: string) {
  const volume = path.join(state.volumesDir, id)
  return {
    image: path.join(state.disksDir, `${id}.img`),
    volume,
    workspace: path.join(volume, 'workspace'),
    data: path.join(volume, 'data'),
    layers: path.join(volume, 'layers'),
  }
}
