import { lstat, readdir, rmdir, unlink } from 'node:fs/promises'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import type { OpenedDirectory, WorkspaceScope } from './workspace-descriptors.ts'
import {
  childPath,
  errorCode,
  openChildDirectory,
  openFolderChain,
} from './workspace-descriptors.ts'
import { symbolicLinkError } from './workspace-path.ts'

/**
 * Deletes the file or folder `components` name, a folder with everything in it. Works through
 * folder descriptors (workspace-descriptors.ts) and never follows a link: a link found inside a
 * folder, or put in an entry's place meanwhile, is removed as a link.
 */
export async function removeWorkspaceEntry(scope: WorkspaceScope, components: string[]) {
  const name = components.at(-1)
  if (name === undefined) throw new WorkspacePathError('The workspace root cannot be deleted')
  const notFound = () => new WorkspacePathError(`${scope.shown} does not exist`, 'not-found')
  const parent = await openFolderChain(scope, components.slice(0, -1))
  if (!parent) throw notFound()
  try {
    const stats = await lstat(childPath(parent, name)).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') return undefined
      throw error
    })
    if (!stats) throw notFound()
    if (stats.isSymbolicLink()) throw symbolicLinkError(JSON.stringify(components.join('/')))
    await removeEntry(parent, name, stats.isDirectory(), scope)
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOTEMPTY' || code === 'EISDIR' || code === 'ENOTDIR' || code === 'ELOOP') {
      throw new WorkspacePathError(
        `${scope.shown} was changed by something else while it was being deleted; try again`,
      )
    }
    throw error
  } finally {
    await parent.handle.close()
  }
}

async function removeEntry(
  parent: OpenedDirectory,
  name: string,
  isDirectory: boolean,
  scope: WorkspaceScope,
  swapsLeft = 3,
): Promise<void> {
  const entryPath = childPath(parent, name)
  if (!isDirectory) {
    try {
      await unlink(entryPath)
      return
    } catch (error) {
      const code = errorCode(error)
      if (code === 'ENOENT') return
      // A folder put in the file's place meanwhile: removed as a folder.
      if ((code !== 'EISDIR' && code !== 'EPERM') || swapsLeft === 0) throw error
    }
  }
  let directory: OpenedDirectory
  try {
    directory = await openChildDirectory(parent, name, scope)
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOENT') return
    // Not a folder (any more): a link or a file, removed as itself.
    if ((code === 'ENOTDIR' || code === 'ELOOP') && swapsLeft > 0) {
      return removeEntry(parent, name, false, scope, swapsLeft - 1)
    }
    throw error
  }
  try {
    const entries = await readdir(directory.path, { withFileTypes: true })
    for (const entry of entries) {
      await removeEntry(directory, entry.name, entry.isDirectory(), scope)
    }
  } finally {
    await directory.handle.close()
  }
  await rmdir(entryPath).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error
  })
}
