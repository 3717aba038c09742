import type { Stats } from 'node:fs'
import { constants } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { lstat, mkdir, open, realpath } from 'node:fs/promises'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { isInside } from '../../../is-inside.ts'
import { notAFolderError, outsideWorkspaceError, symbolicLinkError } from './workspace-path.ts'

/**
 * A folder held open by descriptor. `path` names it through /proc/self/fd, so a name below it is
 * looked up in this very folder, whatever has been renamed or swapped for a link on the way since
 * it was opened (Node has no openat).
 */
export type OpenedDirectory = { handle: FileHandle; path: string }

export type Owner = { uid: number; gid: number }

/** The workspace's real path, and the requested path as error messages show it. */
export type WorkspaceScope = { workspaceRealPath: string; shown: string }

export type OpenedEntry =
  | { kind: 'missing' }
  | { kind: 'file' | 'directory' | 'other'; handle: FileHandle; stats: Stats }

const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW
/** O_NONBLOCK: a FIFO put in a file's place cannot hang the server; O_NOCTTY: nor can a terminal. */
export const entryFlags =
  constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY

export const descriptorPath = (handle: FileHandle) => `/proc/self/fd/${handle.fd}`
export const childPath = (directory: OpenedDirectory, name: string) => `${directory.path}/${name}`

export function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return typeof code === 'string' ? code : undefined
}

/** Errors that only mean something else changed the entry meanwhile (a race, not an escape). */
export function isChangedMeanwhile(error: unknown): boolean {
  if (error instanceof WorkspacePathError) return error.code === 'not-found'
  const code = errorCode(error)
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENXIO'
}

/** What was actually opened, by its real path, must be inside the workspace. */
export async function assertOpenedInside(handle: FileHandle, scope: WorkspaceScope) {
  const openedPath = await realpath(descriptorPath(handle)).catch(() => undefined)
  if (openedPath === undefined) {
    throw new WorkspacePathError(
      `${scope.shown} was removed while the tool used it; try again`,
      'not-found',
    )
  }
  if (!isInside(openedPath, scope.workspaceRealPath)) throw outsideWorkspaceError(scope.shown)
}

/** Opens `path` and checks it is inside the workspace; the handle is closed when it is not. */
export async function openInside(
  path: string,
  flags: number,
  scope: WorkspaceScope,
  mode?: number,
): Promise<FileHandle> {
  const handle = await open(path, flags, mode)
  try {
    await assertOpenedInside(handle, scope)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

export async function openChildDirectory(
  parent: OpenedDirectory,
  name: string,
  scope: WorkspaceScope,
): Promise<OpenedDirectory> {
  const handle = await openInside(childPath(parent, name), directoryFlags, scope)
  return { handle, path: descriptorPath(handle) }
}

/**
 * Opens the folder that `components` name, one descriptor at a time from the workspace root and
 * never through a link. Undefined when a folder on the way does not exist, unless `create` asks
 * for the missing ones to be made (and given to `create.owner`).
 */
export async function openFolderChain(
  scope: WorkspaceScope,
  components: string[],
  create?: { owner: Owner | undefined },
): Promise<OpenedDirectory | undefined> {
  const rootHandle = await openInside(scope.workspaceRealPath, directoryFlags, scope)
  let current: OpenedDirectory = { handle: rootHandle, path: descriptorPath(rootHandle) }
  for (const [index, name] of components.entries()) {
    const shownPrefix = JSON.stringify(components.slice(0, index + 1).join('/'))
    let next: OpenedDirectory | undefined
    try {
      next = await stepInto(current, name, scope, shownPrefix, create)
    } finally {
      await current.handle.close()
    }
    if (!next) return undefined
    current = next
  }
  return current
}

async function stepInto(
  parent: OpenedDirectory,
  name: string,
  scope: WorkspaceScope,
  shownPrefix: string,
  create: { owner: Owner | undefined } | undefined,
): Promise<OpenedDirectory | undefined> {
  try {
    return await openChildDirectory(parent, name, scope)
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOTDIR' || code === 'ELOOP')
      throw await explainNotAFolder(parent, name, shownPrefix)
    if (code !== 'ENOENT') throw error
    if (!create) return undefined
  }
  const made = await mkdir(childPath(parent, name)).then(
    () => true,
    (error: unknown) => {
      if (errorCode(error) === 'EEXIST') return false
      throw error
    },
  )
  const directory = await stepInto(parent, name, scope, shownPrefix, undefined)
  if (!directory) {
    throw new WorkspacePathError(
      `${shownPrefix} was removed while it was made; try again`,
      'not-found',
    )
  }
  if (made && create.owner) await directory.handle.chown(create.owner.uid, create.owner.gid)
  return directory
}

async function explainNotAFolder(parent: OpenedDirectory, name: string, shownPrefix: string) {
  const stats = await lstat(childPath(parent, name)).catch(() => undefined)
  return stats?.isSymbolicLink() ? symbolicLinkError(shownPrefix) : notAFolderError(shownPrefix)
}

/** Opens the entry `name` in `parent` without following a link; undefined when it is missing. */
export async function openChildEntry(
  parent: OpenedDirectory,
  name: string,
  scope: WorkspaceScope,
  shownPrefix: string,
): Promise<Exclude<OpenedEntry, { kind: 'missing' }> | undefined> {
  let handle: FileHandle
  try {
    handle = await openInside(childPath(parent, name), entryFlags, scope)
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOENT') return undefined
    if (code === 'ELOOP') throw symbolicLinkError(shownPrefix)
    if (code === 'ENXIO') {
      throw new WorkspacePathError(`${shownPrefix} is neither a file nor a folder`, 'not-a-file')
    }
    throw error
  }
  const stats = await handle.stat()
  const kind = stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other'
  return { kind, handle, stats }
}

/** Opens what `components` name (the workspace root for `[]`), confined as openFolderChain. */
export async function openWorkspaceEntry(
  scope: WorkspaceScope,
  components: string[],
): Promise<OpenedEntry> {
  const name = components.at(-1)
  const parent = await openFolderChain(scope, components.slice(0, -1))
  if (!parent) return { kind: 'missing' }
  try {
    if (name === undefined) {
      return { kind: 'directory', handle: parent.handle, stats: await parent.handle.stat() }
    }
    const entry = await openChildEntry(parent, name, scope, JSON.stringify(components.join('/')))
    await parent.handle.close()
    return entry ?? { kind: 'missing' }
  } catch (error) {
    await parent.handle.close()
    throw error
  }
}

/** Reads at most `limit` bytes from the start, however much the file grows meanwhile. */
export async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer> {
  const buffer = Buffer.alloc(limit)
  let filled = 0
  while (filled < limit) {
    const { bytesRead } = await handle.read(buffer, filled, limit - filled, filled)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  return buffer.subarray(0, filled)
}
