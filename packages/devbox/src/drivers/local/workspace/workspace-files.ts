import { lstat, realpath } from 'node:fs/promises'
import type { FileEntry, WorkspaceFiles } from '../../../devbox-driver.ts'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { removeWorkspaceEntry } from './remove-workspace-entry.ts'
import { searchWorkspace } from './search-workspace.ts'
import { walkWorkspace } from './walk-workspace.ts'
import type { OpenedDirectory, Owner, WorkspaceScope } from './workspace-descriptors.ts'
import {
  childPath,
  descriptorPath,
  isChangedMeanwhile,
  openWorkspaceEntry,
  readAtMost,
} from './workspace-descriptors.ts'
import { workspacePathComponents } from './workspace-path.ts'
import { writeWorkspaceFile } from './write-workspace-file.ts'

const maxReadBytes = 2 * 1024 * 1024
const maxListedEntries = 5000

/**
 * File operations that never leave `workspacePath`, though app code may swap any entry for a link
 * at any moment: paths are opened one folder descriptor at a time, never through a link
 * (workspace-descriptors.ts). With `owner`, new entries go to that uid.
 */
export function createWorkspaceFiles(
  workspacePath: string,
  options: { owner?: Owner } = {},
): WorkspaceFiles {
  let workspaceRealPath: Promise<string> | undefined
  const scopeOf = async (requestedPath: string): Promise<WorkspaceScope> => {
    workspaceRealPath ??= realpath(workspacePath)
    return { workspaceRealPath: await workspaceRealPath, shown: JSON.stringify(requestedPath) }
  }

  return {
    read: async (relativePath) => {
      const components = workspacePathComponents(relativePath)
      const scope = await scopeOf(relativePath)
      const entry = await openWorkspaceEntry(scope, components)
      if (entry.kind === 'missing') {
        throw new WorkspacePathError(`File ${scope.shown} does not exist`, 'not-found')
      }
      try {
        if (entry.kind !== 'file') {
          throw new WorkspacePathError(`${scope.shown} is not a file`, 'not-a-file')
        }
        const { size } = entry.stats
        if (size > maxReadBytes) {
          throw new WorkspacePathError(
            `File ${scope.shown} is too large to read (${size} bytes); use search or a shell command instead`,
            'too-large',
          )
        }
        return (await readAtMost(entry.handle, size)).toString('utf8')
      } finally {
        await entry.handle.close()
      }
    },

    write: async (relativePath, content) => {
      const components = workspacePathComponents(relativePath)
      const scope = await scopeOf(relativePath)
      await writeWorkspaceFile({ scope, components, content, owner: options.owner })
    },

    delete: async (relativePath) => {
      const components = workspacePathComponents(relativePath)
      await removeWorkspaceEntry(await scopeOf(relativePath), components)
    },

    list: async (relativePath = '.', listOptions = {}) => {
      const components = workspacePathComponents(relativePath)
      const scope = await scopeOf(relativePath)
      const start = await openWorkspaceEntry(scope, components)
      if (start.kind === 'missing') {
        throw new WorkspacePathError(`Folder ${scope.shown} does not exist`, 'not-found')
      }
      const directory = { handle: start.handle, path: descriptorPath(start.handle) }
      try {
        if (start.kind !== 'directory') {
          throw new WorkspacePathError(`${scope.shown} is not a folder`, 'not-a-directory')
        }
        const recursive = listOptions.recursive ?? false
        // One folder's files are measured at once (its descriptor stays open until the end); a
        // recursive walk measures each before it moves on, when its folder may be closed.
        const entries: (FileEntry | Promise<FileEntry | undefined>)[] = []
        const walk = walkWorkspace({
          directory,
          relativeDirectory: components.join('/'),
          recursive,
          workspaceRealPath: scope.workspaceRealPath,
        })
        for await (const entry of walk) {
          if (entries.length >= maxListedEntries) break
          if (entry.type === 'directory') {
            entries.push({ path: entry.relativePath, type: 'directory', size: 0 })
            continue
          }
          const measured = measureFile(entry.directory, entry.name, entry.relativePath)
          // Its error, if any, is thrown by Promise.all below, not reported as unhandled meanwhile.
          measured.catch(() => undefined)
          entries.push(recursive ? Promise.resolve(await measured) : measured)
        }
        const listed = await Promise.all(entries)
        return listed.filter((entry): entry is FileEntry => entry !== undefined)
      } finally {
        await directory.handle.close()
      }
    },

    search: async (options) => searchWorkspace((await scopeOf('.')).workspaceRealPath, options),
  }
}

/** lstat through the opened folder follows nothing; a file swapped meanwhile is left out. */
async function measureFile(
  directory: OpenedDirectory,
  name: string,
  relativePath: string,
): Promise<FileEntry | undefined> {
  const stats = await lstat(childPath(directory, name)).catch((error: unknown) => {
    if (isChangedMeanwhile(error)) return undefined
    throw error
  })
  return stats?.isFile() ? { path: relativePath, type: 'file', size: stats.size } : undefined
}
