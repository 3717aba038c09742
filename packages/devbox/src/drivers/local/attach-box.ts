import { existsSync } from 'node:fs'
import { mkdir, realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import { type PackType, WorkspacePathError } from '../../devbox-driver.ts'
import { layersOf, workspacePathOf } from './box-locations.ts'
import type { AttachedBox, LocalDevbox, LocalDriverState } from './local-driver-state.ts'
import { createBoxExec } from './processes/box-exec.ts'
import { createDevServer } from './processes/dev-server.ts'
import { type BoxDiskUsage, diskFullMessage, isNoSpaceError } from './sandbox/box-disk.ts'
import { checkpointWorkspace } from './workspace/checkpoint.ts'
import { copyWorkspaceFolder } from './workspace/copy-workspace-folder.ts'
import { ensureOwner } from './workspace/ensure-owner.ts'
import { createWorkspaceFiles } from './workspace/workspace-files.ts'

/** Makes the box of an existing workspace: its sandbox, files, commands and dev server. */
export async function attachBox(
  state: LocalDriverState,
  id: string,
  packType: PackType,
  disk: BoxDiskUsage,
): Promise<AttachedBox> {
  const { sandbox, dependencies } = state
  const workspacePath = await realpath(workspacePathOf(state, id))
  // The preview's database lives here, outside the workspace (docs/architecture/devbox.md).
  const dataPath = path.join(state.appDataDir, id)
  await mkdir(dataPath, { recursive: true, mode: 0o700 })
  const boxSandbox = sandbox.forBox({ boxId: id, workspacePath, dataPath })
  if (boxSandbox.owner) {
    const modules = path.join(workspacePath, 'node_modules')
    // A workspace handed to another uid is chowned whole: never through the shared lower.
    if ((await stat(workspacePath)).uid !== boxSandbox.owner.uid) {
      if (dependencies.isMounted(modules)) await dependencies.remove(modules)
      // What the box installed before (its upper layer) follows it to its new uid (issue 29).
      const { upper } = layersOf(state, id, disk)
      if (existsSync(upper)) await ensureOwner(upper, boxSandbox.owner)
    }
    await ensureOwner(workspacePath, boxSandbox.owner)
    await ensureOwner(dataPath, boxSandbox.owner)
  }
  const stopAll = new AbortController()
  const exec = createBoxExec({
    workspacePath,
    sandbox: boxSandbox,
    stopAll: stopAll.signal,
    diskLimitMb: sandbox.limits.diskMb,
    disk,
  })
  const files = createWorkspaceFiles(workspacePath, { owner: boxSandbox.owner })
  const box: LocalDevbox = {
    id,
    packType,
    workspacePath,
    dataPath,
    files: {
      ...files,
      write: async (relativePath, content) => {
        await disk.assertSpace()
        await files.write(relativePath, content).catch((error: unknown) => {
          if (!isNoSpaceError(error)) throw error
          throw new WorkspacePathError(diskFullMessage(disk.limitMb), 'disk-full')
        })
      },
    },
    copyFolderOut: (relativePath, destination) =>
      copyWorkspaceFolder(workspacePath, relativePath, destination),
    exec,
    devServer: createDevServer({
      boxId: id,
      workspacePath,
      sandbox: boxSandbox,
      logger: state.logger,
      env: state.options.devServerEnv,
    }),
    checkpoint: (message) => checkpointWorkspace(exec, message),
    suspend: async () => {
      await box.devServer.stop()
      // The next start or command prepares the sandbox again (BoxSandbox.prepare).
      await boxSandbox.release()
    },
  }
  const entry = { box, stopAll, release: boxSandbox.release, owner: boxSandbox.owner }
  state.attached.set(id, entry)
  return entry
}
