import { realpath } from 'node:fs/promises'
import { copyBuildOutput } from '../../../copy-build-output.ts'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { resolveWorkspacePath } from './workspace-path.ts'

/** A workspace folder's absolute path, by the workspace's path rules; an error when it is none. */
export async function resolveWorkspaceFolder(workspacePath: string, relativePath: string) {
  const resolved = await resolveWorkspacePath(await realpath(workspacePath), relativePath)
  const shown = JSON.stringify(resolved.relativePath)
  if (resolved.kind === 'missing') {
    throw new WorkspacePathError(`There is no folder ${shown}`, 'not-found')
  }
  if (resolved.kind !== 'directory') {
    throw new WorkspacePathError(`${shown} is not a folder`, 'not-a-directory')
  }
  return resolved.absolutePath
}

/** A local box's `copyFolderOut`: the workspace's path rules, then the build output's copy. */
export async function copyWorkspaceFolder(
  workspacePath: string,
  relativePath: string,
  destination: string,
) {
  await copyBuildOutput(await resolveWorkspaceFolder(workspacePath, relativePath), destination)
}
