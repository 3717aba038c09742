import type { FileHandle } from 'node:fs/promises'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { SearchMatch, SearchOptions } from '../../../devbox-driver.ts'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { walkWorkspace } from './walk-workspace.ts'
import {
  childPath,
  descriptorPath,
  entryFlags,
  isChangedMeanwhile,
  openInside,
  openWorkspaceEntry,
  readAtMost,
} from './workspace-descriptors.ts'
import { workspacePathComponents } from './workspace-path.ts'

const defaultMaxMatches = 100
const maxFilesScanned = 5000
const maxFileBytes = 512 * 1024
const maxLineCharacters = 300

/**
 * A plain-JavaScript grep: the pattern is a regular expression, or literal text when it is not a
 * valid one. Every file is opened by descriptor inside the workspace (workspace-descriptors.ts).
 */
export async function searchWorkspace(
  workspaceRealPath: string,
  options: SearchOptions,
): Promise<SearchMatch[]> {
  const matcher = toMatcher(options.pattern)
  const extension = options.fileType ? `.${options.fileType.replace(/^\*?\./, '')}` : undefined
  const maxMatches = options.maxMatches ?? defaultMaxMatches
  const requestedPath = options.path ?? '.'
  const components = workspacePathComponents(requestedPath)
  const scope = { workspaceRealPath, shown: JSON.stringify(requestedPath) }
  const start = await openWorkspaceEntry(scope, components)
  if (start.kind === 'missing') {
    throw new WorkspacePathError(`Nothing found at ${JSON.stringify(options.path)}`, 'not-found')
  }

  const matches: SearchMatch[] = []
  const searchFile = async (handle: FileHandle, relativePath: string) => {
    const stats = await handle.stat()
    if (!stats.isFile() || stats.size > maxFileBytes) return
    const content = await readAtMost(handle, stats.size)
    if (content.subarray(0, 8000).includes(0)) return
    const lines = content.toString('utf8').split('\n')
    for (const [index, line] of lines.entries()) {
      if (!matcher(line)) continue
      matches.push({ path: relativePath, line: index + 1, text: cutText(line, maxLineCharacters) })
      if (matches.length >= maxMatches) break
    }
  }

  try {
    const startPath = components.join('/')
    if (start.kind === 'file') {
      if (!extension || startPath.endsWith(extension)) await searchFile(start.handle, startPath)
      return matches
    }
    if (start.kind !== 'directory') return matches
    const walk = walkWorkspace({
      directory: { handle: start.handle, path: descriptorPath(start.handle) },
      relativeDirectory: startPath,
      recursive: true,
      workspaceRealPath,
    })
    let scanned = 0
    for await (const entry of walk) {
      if (entry.type !== 'file') continue
      if (extension && !entry.relativePath.endsWith(extension)) continue
      if (++scanned > maxFilesScanned || matches.length >= maxMatches) break
      const fileScope = { workspaceRealPath, shown: JSON.stringify(entry.relativePath) }
      // A file replaced by a link or removed since its folder was read is skipped.
      const handle = await openInside(
        childPath(entry.directory, entry.name),
        entryFlags,
        fileScope,
      ).catch((error: unknown) => {
        if (isChangedMeanwhile(error)) return undefined
        throw error
      })
      if (!handle) continue
      try {
        await searchFile(handle, entry.relativePath)
      } finally {
        await handle.close()
      }
    }
    return matches
  } finally {
    await start.handle.close()
  }
}

function toMatcher(pattern: string): (line: string) => boolean {
  try {
    const expression = new RegExp(pattern)
    return (line) => expression.test(line)
  } catch {
    return (line) => line.includes(pattern)
  }
}
