import { createHash } from 'node:crypto'
import { posix } from 'node:path'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { WorkspacePathError } from '@sprout/devbox/devbox-driver.ts'
import type {
  FileContent,
  FileTreeEntry,
  FileTreeResponse,
  SaveFileRequest,
  SaveFileResponse,
} from '@sprout/protocol/api/versions.ts'
import { AppError, badRequest, conflict, notFound, payloadTooLarge } from '../http/app-error.ts'

// docs/product/versions.md "Code" and docs/product/error-texts.md, word for word.
export const SAVE_DURING_RUN =
  'The agent is working: editing is paused until it finishes. Save again when the run has ended.'
export const SAVE_CONFLICT =
  'This file changed since you opened it. Reload it, or overwrite it with your version.'
export const GIT_FOLDER_REFUSED = 'Files inside .git cannot be opened or changed here.'
export const BINARY_FILE_REFUSED = 'This file is binary and cannot be opened in the editor.'
export const SAVE_TOO_LARGE = 'This file is too large to save from the editor (2 MiB at most).'

/** The largest file the editor saves: what the agent's tools read back (workspace-files.ts). */
const maxSaveBytes = 2 * 1024 * 1024

/**
 * Left out of the tree: dependencies, git, build output, and the tool folders of the box's home
 * (HOME is the workspace: templates/fullstack/.gitignore).
 */
const hiddenFolders = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  '.vite',
  '.npm',
  '.cache',
  '.config',
  '.local',
  '.data',
])
const hiddenFiles = new Set(['.bash_history'])

type CodeBox = Pick<Devbox, 'files'>

export function contentHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex')
}

/**
 * The editor's paths go through the same confinement as the agent's tools (box.files: no `..`,
 * no absolute path, no NUL, no link); `.git` is refused here besides, as app code must not get
 * its hooks or config written by a user's Save either.
 */
function checkedPath(requestedPath: string): string {
  const components = requestedPath.split(/[\\/]/)
  if (components.some((component) => component.toLowerCase() === '.git')) {
    throw badRequest(GIT_FOLDER_REFUSED)
  }
  return requestedPath
}

/** A refused path is the caller's mistake (4xx) with the box's message, which names the fix. */
function asAppError(error: unknown): unknown {
  if (!(error instanceof WorkspacePathError)) return error
  if (error.code === 'not-found') return notFound(error.message)
  if (error.code === 'too-large') return payloadTooLarge(error.message)
  if (error.code === 'disk-full') return new AppError(507, error.message)
  return badRequest(error.message)
}

async function inWorkspace<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw asAppError(error)
  }
}

/** One folder of the tree (lazy): folders first, then files, each by name. */
export async function listFolder(box: CodeBox, requestedPath: string): Promise<FileTreeResponse> {
  const path = checkedPath(requestedPath)
  const listed = await inWorkspace(() => box.files.list(path === '' ? '.' : path))
  const entries: FileTreeEntry[] = []
  for (const entry of listed) {
    const name = entry.path.split('/').at(-1) ?? entry.path
    if (entry.type === 'directory' && hiddenFolders.has(name)) continue
    if (entry.type === 'file' && (hiddenFiles.has(name) || name.startsWith('.sprout-write-')))
      continue
    entries.push(
      entry.type === 'file'
        ? { name, path: entry.path, type: 'file', size: entry.size }
        : { name, path: entry.path, type: 'directory' },
    )
  }
  // Folders first, then by name ignoring case; a plain comparison (localeCompare takes tens of
  // milliseconds for a folder of thousands of files).
  const keyOf = (entry: FileTreeEntry) =>
    `${entry.type === 'directory' ? 0 : 1}${entry.name.toLowerCase()}`
  const keyed = entries.map((entry) => ({ entry, key: keyOf(entry) }))
  keyed.sort((first, second) => (first.key < second.key ? -1 : first.key > second.key ? 1 : 0))
  return { path: normalized(path), entries: keyed.map(({ entry }) => entry) }
}

/** The path as the box resolved it, relative to the workspace root (`''` for the root). */
function normalized(path: string): string {
  const resolved = posix.normalize(path === '' ? '.' : path)
  return resolved === '.' ? '' : resolved.replace(/\/$/, '')
}

/** A file and its hash, read-only while a run is active in the application. */
export async function readFileContent(
  box: CodeBox,
  requestedPath: string,
  runActive: boolean,
): Promise<FileContent> {
  const path = checkedPath(requestedPath)
  const content = await inWorkspace(() => box.files.read(path))
  if (content.includes('\0') || content.includes('\uFFFD')) throw unprocessableBinary()
  return { path: normalized(path), content, hash: contentHash(content), readOnly: runActive }
}

function unprocessableBinary() {
  return new AppError(415, BINARY_FILE_REFUSED)
}

/**
 * Saves through box.files.write, the agent's own write (docs/product/versions.md "Code"): 409
 * while a run is active, or when the file changed since `baseHash` unless `overwrite`.
 */
export async function saveFileContent(
  box: CodeBox,
  input: SaveFileRequest,
  runActive: boolean,
): Promise<SaveFileResponse> {
  const path = checkedPath(input.path)
  if (runActive) throw conflict(SAVE_DURING_RUN)
  if (Buffer.byteLength(input.content, 'utf8') > maxSaveBytes) throw payloadTooLarge(SAVE_TOO_LARGE)
  if (input.baseHash !== undefined && !input.overwrite) {
    const current = await inWorkspace(() => box.files.read(path)).catch((error: unknown) => {
      // A file deleted since it was opened changed too; a new file has no base to differ from.
      if (error instanceof AppError && error.status === 404) return undefined
      throw error
    })
    if (current === undefined || contentHash(current) !== input.baseHash) {
      throw conflict(SAVE_CONFLICT)
    }
  }
  await inWorkspace(() => box.files.write(path, input.content))
  return { path: normalized(path), hash: contentHash(input.content) }
}
