import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { mkdir, open, realpath, rename, rm, stat } from 'node:fs/promises'
import type { FileEntry, WorkspaceFiles } from '../../devbox-driver.ts'
import { WorkspacePathError } from '../../devbox-driver.ts'
import { isInside } from './sandbox.ts'
import { searchWorkspace } from './search-workspace.ts'
import { walkWorkspace } from './walk-workspace.ts'
import { resolveWorkspacePath } from './workspace-path.ts'

const maxReadBytes = 2 * 1024 * 1024
const maxListedEntries = 5000

/** File operations that never read or write outside `workspacePath` (see resolveWorkspacePath). */
export function createWorkspaceFiles(workspacePath: string): WorkspaceFiles {
  let workspaceRealPath: Promise<string> | undefined
  const root = () => {
    workspaceRealPath ??= realpath(workspacePath)
    return workspaceRealPath
  }
  const resolve = async (relativePath: string) => resolveWorkspacePath(await root(), relativePath)

  return {
    read: async (relativePath) => {
      const target = await resolve(relativePath)
      const shown = JSON.stringify(relativePath)
      if (target.kind === 'missing')
        throw new WorkspacePathError(`File ${shown} does not exist`, 'not-found')
      if (target.kind !== 'file')
        throw new WorkspacePathError(`${shown} is not a file`, 'not-a-file')
      const handle = await open(target.absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW)
      try {
        await assertOpenedInside(handle, await root(), shown)
        const { size } = await handle.stat()
        if (size > maxReadBytes) {
          throw new WorkspacePathError(
            `File ${shown} is too large to read (${size} bytes); use search or a shell command instead`,
            'too-large',
          )
        }
        return await handle.readFile('utf8')
      } finally {
        await handle.close()
      }
    },

    write: async (relativePath, content) => {
      const target = await resolve(relativePath)
      const shown = JSON.stringify(relativePath)
      if (target.relativePath === '' || target.kind === 'directory') {
        throw new WorkspacePathError(
          `${shown} is a folder; give a file path like src/App.tsx`,
          'not-a-file',
        )
      }
      if (target.kind === 'other')
        throw new WorkspacePathError(`${shown} is not a regular file`, 'not-a-file')
      if (target.kind === 'missing') {
        await mkdir(parentOf(target.absolutePath), { recursive: true })
        // The folders just made must not have been swapped for links meanwhile.
        await resolve(relativePath)
      }
      // Written to a temporary file and renamed over the target, so a file is never half-written.
      const temporaryPath = `${parentOf(target.absolutePath)}/.sprout-write-${randomUUID()}.tmp`
      const mode = target.kind === 'file' ? (await stat(target.absolutePath)).mode & 0o777 : 0o644
      const handle = await open(
        temporaryPath,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        mode,
      )
      try {
        await assertOpenedInside(handle, await root(), shown)
        await handle.writeFile(content, 'utf8')
        await handle.close()
        await rename(temporaryPath, target.absolutePath)
      } catch (error) {
        await handle.close().catch(() => {})
        await rm(temporaryPath, { force: true })
        throw error
      }
    },

    delete: async (relativePath) => {
      const target = await resolve(relativePath)
      const shown = JSON.stringify(relativePath)
      if (target.relativePath === '')
        throw new WorkspacePathError('The workspace root cannot be deleted')
      if (target.kind === 'missing')
        throw new WorkspacePathError(`${shown} does not exist`, 'not-found')
      await rm(target.absolutePath, { recursive: true })
    },

    list: async (relativePath = '.', options = {}) => {
      const target = await resolve(relativePath)
      const shown = JSON.stringify(relativePath)
      if (target.kind === 'missing')
        throw new WorkspacePathError(`Folder ${shown} does not exist`, 'not-found')
      if (target.kind !== 'directory')
        throw new WorkspacePathError(`${shown} is not a folder`, 'not-a-directory')
      const entries: FileEntry[] = []
      const walk = walkWorkspace({
        absoluteDirectory: target.absolutePath,
        relativeDirectory: target.relativePath,
        recursive: options.recursive ?? false,
      })
      for await (const entry of walk) {
        if (entries.length >= maxListedEntries) break
        const isDirectory = entry.dirent.isDirectory()
        entries.push({
          path: entry.relativePath,
          type: isDirectory ? 'directory' : 'file',
          size: isDirectory ? 0 : (await stat(entry.absolutePath)).size,
        })
      }
      return entries
    },

    search: async (options) => searchWorkspace(await root(), options),
  }
}

function parentOf(absolutePath: string): string {
  return absolutePath.slice(0, absolutePath.lastIndexOf('/'))
}

/** Closes the race between checking a path and opening it: the opened file itself must be inside. */
async function assertOpenedInside(handle: FileHandle, workspaceRealPath: string, shown: string) {
  const openedPath = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => undefined)
  if (openedPath !== undefined && !isInside(openedPath, workspaceRealPath)) {
    throw new WorkspacePathError(`Path ${shown} leads outside the workspace`, 'outside-workspace')
  }
}
