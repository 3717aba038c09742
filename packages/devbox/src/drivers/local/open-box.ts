import { existsSync, lstatSync } from 'node:fs'
import path from 'node:path'
import type { PackType } from '../../devbox-driver.ts'
import { attachBox } from './attach-box.ts'
import { diskTargets, layersOf, withLayers, workspacePathOf } from './box-locations.ts'
import type { LocalDevbox, LocalDriverState } from './local-driver-state.ts'

/** The box of an existing workspace, attached again (after a restart) when it is not. */
export async function openBox(
  state: LocalDriverState,
  id: string,
  packType: PackType,
  openOptions: { env?: Record<string, string> } = {},
): Promise<LocalDevbox> {
  const { logger } = state
  const existing = state.attached.get(id)
  if (existing) {
    if (openOptions.env) await existing.box.devServer.setEnvironment?.(openOptions.env)
    await existing.box.devServer.start()
    return existing.box
  }
  // After a reboot the workspace is an empty folder until its image is mounted again.
  const openedDisk = await state.disks.open(id, state.sandbox.limits.diskMb, diskTargets(state, id))
  const disk = lstatExists(path.join(layersOf(state, id, openedDisk).folder, 'lower'))
    ? withLayers(state, id, openedDisk)
    : openedDisk
  if (!existsSync(path.join(workspacePathOf(state, id), '.git'))) {
    throw new Error(`Dev box ${id} has no workspace in ${state.workspacesDir}; provision a new one`)
  }
  const { box, owner } = await attachBox(state, id, packType, disk)
  await state.dependencies
    .reopen({
      layers: layersOf(state, id, disk),
      target: path.join(workspacePathOf(state, id), 'node_modules'),
      owner,
    })
    .catch((error: Error) => {
      // `npm install` in the box makes a node_modules of its own in the empty folder.
      logger.warn('Could not mount the shared dependencies of a box again', {
        id,
        error: error.message,
      })
    })
  // Not started yet, so the server starts once, with its environment.
  if (openOptions.env) await box.devServer.setEnvironment?.(openOptions.env)
  // The workspace is intact even when app code broke the dev server; restarts keep trying.
  await box.devServer.start().catch((error: Error) => {
    logger.warn('Dev server did not start when reopening the box', { id, error: error.message })
  })
  return box
}

/** True when the path exists, without following a link (the layer's `lower`). */
function lstatExists(entryPath: string): boolean {
  try {
    lstatSync(entryPath)
    return true
  } catch {
    return false
  }
}
