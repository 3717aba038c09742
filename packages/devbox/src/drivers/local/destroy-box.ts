import { rm } from 'node:fs/promises'
import path from 'node:path'
import { diskTargets, workspacePathOf } from './box-locations.ts'
import { detachBox } from './detach-box.ts'
import type { LocalDriverState } from './local-driver-state.ts'

export async function destroyBox(state: LocalDriverState, id: string): Promise<void> {
  const { rootDir, appDataDir } = state
  const workspacePath = workspacePathOf(state, id)
  await detachBox(state, id)
  // The overlay first: nothing below is deleted through it (its lower is shared).
  await state.dependencies.remove(path.join(workspacePath, 'node_modules'))
  // Its image goes whole: nothing to delete file by file on it.
  await state.disks.destroy(id, diskTargets(state, id))
  await rm(path.join(rootDir, 'layers', id), { recursive: true, force: true, maxRetries: 3 })
  await rm(workspacePath, { recursive: true, force: true, maxRetries: 3 })
  await rm(path.join(appDataDir, id), { recursive: true, force: true, maxRetries: 3 })
  state.sandbox.forgetBox(id)
}
