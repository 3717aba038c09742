import { lstat, realpath } from 'node:fs/promises'
import path from 'node:path'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { isInside } from '../../../is-inside.ts'

export type ResolvedWorkspacePath = {
  absolutePath: string
  /** Normalised, relative to the workspace root, `''` for the root itself. */
  relativePath: string
  kind: 'file' | 'directory' | 'other' | 'missing'
}

const encodedSeparatorOrDot = /%(2e|2f|5c|00)/i

/** Linux's limits, in bytes of UTF-8 (NAME_MAX, PATH_MAX): past them a call fails ENAMETOOLONG. */
export const NAME_MAX_BYTES = 255
export const PATH_MAX_BYTES = 4096

/** A long name shown in a message: its start only. */
const shortened = (text: string) =>
  JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)

export function nameTooLongError(name: string): WorkspacePathError {
  return new WorkspacePathError(
    `The name ${shortened(name)} is ${Buffer.byteLength(name, 'utf8')} bytes long; a file or folder name can be at most ${NAME_MAX_BYTES} bytes (UTF-8), use a shorter name`,
  )
}

export function pathTooLongError(requestedPath: string): WorkspacePathError {
  return new WorkspacePathError(
    `The path ${shortened(requestedPath)} is too long; a path can be at most ${PATH_MAX_BYTES} bytes (UTF-8) with the workspace's own folder, use a shorter one`,
  )
}

/** Refuses a name or a whole path past Linux's limits, with the limit, before any call fails. */
function checkLengths(requestedPath: string, components: string[]) {
  if (Buffer.byteLength(requestedPath, 'utf8') >= PATH_MAX_BYTES) {
    throw pathTooLongError(requestedPath)
  }
  const long = components.find((name) => Buffer.byteLength(name, 'utf8') > NAME_MAX_BYTES)
  if (long !== undefined) throw nameTooLongError(long)
}

/**
 * The names on the way from the workspace root to `requestedPath`, normalised (`[]` for the root).
 * Refuses absolute paths, `..` leaving the workspace, encoded separators and NUL bytes; what is
 * on disk is checked by whoever opens the path.
 */
export function workspacePathComponents(requestedPath: string): string[] {
  const shown = JSON.stringify(requestedPath)
  if (requestedPath.includes('\0')) {
    throw new WorkspacePathError(
      `Path ${shown} contains a NUL byte; use a plain relative path like src/App.tsx`,
    )
  }
  if (encodedSeparatorOrDot.test(requestedPath)) {
    throw new WorkspacePathError(
      `Path ${shown} contains percent-encoded characters (%2e, %2f, %5c or %00); write the path plainly, relative to the workspace root`,
    )
  }
  if (
    path.isAbsolute(requestedPath) ||
    requestedPath.startsWith('\\') ||
    /^[a-z]:/i.test(requestedPath)
  ) {
    throw new WorkspacePathError(
      `Absolute path ${shown} is not allowed; use a path relative to the workspace root, like src/App.tsx`,
      'outside-workspace',
    )
  }
  const normalized = path.posix.normalize(requestedPath === '' ? '.' : requestedPath)
  if (normalized === '..' || normalized.startsWith('../')) throw outsideWorkspaceError(shown)
  const components = normalized
    .split('/')
    .filter((component) => component !== '' && component !== '.')
  checkLengths(requestedPath, components)
  return components
}

export function outsideWorkspaceError(shown: string): WorkspacePathError {
  return new WorkspacePathError(`Path ${shown} leads outside the workspace`, 'outside-workspace')
}

export function symbolicLinkError(shownPrefix: string): WorkspacePathError {
  return new WorkspacePathError(
    `${shownPrefix} is a symbolic link; file tools do not follow links, use the real path instead`,
    'symbolic-link',
  )
}

export function notAFolderError(shownPrefix: string): WorkspacePathError {
  return new WorkspacePathError(`${shownPrefix} is a file, not a folder`, 'not-a-directory')
}

/**
 * Maps an agent's or user's path into the workspace, refusing every symbolic link on the way, then
 * checks the deepest existing ancestor's real path is inside. Only a check: file tools open by
 * descriptor (workspace-descriptors.ts), which no race can fool.
 */
export async function resolveWorkspacePath(
  workspaceRealPath: string,
  requestedPath: string,
): Promise<ResolvedWorkspacePath> {
  const components = workspacePathComponents(requestedPath)
  // With the workspace's own folder in front, the whole path must still be one Linux takes.
  const absolutePath = path.join(workspaceRealPath, ...components)
  if (Buffer.byteLength(absolutePath, 'utf8') >= PATH_MAX_BYTES) {
    throw pathTooLongError(requestedPath)
  }
  let current = workspaceRealPath
  let deepestExisting = workspaceRealPath
  let kind: ResolvedWorkspacePath['kind'] = 'directory'
  for (const [index, component] of components.entries()) {
    current = path.join(current, component)
    const shownPrefix = JSON.stringify(components.slice(0, index + 1).join('/'))
    const stats = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    if (!stats) {
      kind = 'missing'
      break
    }
    if (stats.isSymbolicLink()) throw symbolicLinkError(shownPrefix)
    const isLast = index === components.length - 1
    if (!isLast && !stats.isDirectory()) throw notAFolderError(shownPrefix)
    deepestExisting = current
    kind = stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other'
  }

  const deepestReal = await realpath(deepestExisting)
  if (!isInside(deepestReal, workspaceRealPath)) {
    throw outsideWorkspaceError(JSON.stringify(requestedPath))
  }
  return {
    absolutePath,
    relativePath: components.join('/'),
    kind,
  }
}
