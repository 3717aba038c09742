import { existsSync } from 'node:fs'
import path from 'node:path'
import type { PackType } from '../../devbox-driver.ts'
import type { LocalDriverState } from './local-driver-state.ts'
import { type BoxDiskUsage, measuredDisk } from './sandbox/box-disk.ts'
import { type DependencyLayers, layersIn } from './workspace/shared-dependencies.ts'

const boxIdPattern = /^[a-z0-9][a-z0-9-]{0,62}$/

export function workspacePathOf(state: LocalDriverState, id: string): string {
  if (!boxIdPattern.test(id)) {
    throw new Error(
      `Invalid dev box id ${JSON.stringify(id)}: use lowercase letters, digits and dashes`,
    )
  }
  return path.join(state.workspacesDir, id)
}

export function templateDirectoryOf(state: LocalDriverState, packType: PackType): string {
  const { templatesDir } = state.options
  const directory = path.resolve(templatesDir, packType)
  if (!/^[a-z0-9-]+$/.test(packType) || !existsSync(path.join(directory, 'package.json'))) {
    throw new Error(`No template for pack type ${JSON.stringify(packType)} in ${templatesDir}`)
  }
  return directory
}

export function diskTargets(state: LocalDriverState, id: string) {
  return {
    workspacePath: workspacePathOf(state, id),
    dataPath: path.join(state.appDataDir, id),
  }
}

/** A box's node_modules layer: on its image when it has one, else `{rootDir}/layers/{id}`. */
export function layersOf(
  state: LocalDriverState,
  id: string,
  disk: BoxDiskUsage,
): DependencyLayers {
  return layersIn(
    disk.layersPath
      ? path.join(disk.layersPath, 'node_modules')
      : path.join(state.rootDir, 'layers', id),
  )
}

/** A measured box counts its upper layer too (`du -x` does not enter the overlay). */
export function withLayers(state: LocalDriverState, id: string, disk: BoxDiskUsage): BoxDiskUsage {
  return disk.enforcedBy === 'measurement' && !disk.layersPath
    ? measuredDisk(
        [
          workspacePathOf(state, id),
          path.join(state.appDataDir, id),
          layersOf(state, id, disk).upper,
        ],
        disk.limitMb,
      )
    : disk
}
