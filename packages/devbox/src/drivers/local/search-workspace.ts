import { readFile, stat } from 'node:fs/promises'
import type { SearchMatch, SearchOptions } from '../../devbox-driver.ts'
import { WorkspacePathError } from '../../devbox-driver.ts'
import { walkWorkspace } from './walk-workspace.ts'
import { resolveWorkspacePath } from './workspace-path.ts'

const defaultMaxMatches = 100
const maxFilesScanned = 5000
const maxFileBytes = 512 * 1024
const maxLineCharacters = 300

/** A plain-JavaScript grep: the pattern is a regular expression, or literal text when it is not a valid one. */
export async function searchWorkspace(
  workspaceRealPath: string,
  options: SearchOptions,
): Promise<SearchMatch[]> {
  const matcher = toMatcher(options.pattern)
  const extension = options.fileType ? `.${options.fileType.replace(/^\*?\./, '')}` : undefined
  const maxMatches = options.maxMatches ?? defaultMaxMatches
  const start = await resolveWorkspacePath(workspaceRealPath, options.path ?? '.')
  if (start.kind === 'missing') {
    throw new WorkspacePathError(`Nothing found at ${JSON.stringify(options.path)}`, 'not-found')
  }

  const files =
    start.kind === 'file'
      ? [{ absolutePath: start.absolutePath, relativePath: start.relativePath }]
      : walkFiles(start.absolutePath, start.relativePath)
  const matches: SearchMatch[] = []
  let scanned = 0
  for await (const file of files) {
    if (extension && !file.relativePath.endsWith(extension)) continue
    if (++scanned > maxFilesScanned || matches.length >= maxMatches) break
    const size = (await stat(file.absolutePath)).size
    if (size > maxFileBytes) continue
    const content = await readFile(file.absolutePath)
    if (content.subarray(0, 8000).includes(0)) continue
    const lines = content.toString('utf8').split('\n')
    for (const [index, line] of lines.entries()) {
      if (!matcher(line)) continue
      matches.push({
        path: file.relativePath,
        line: index + 1,
        text: line.slice(0, maxLineCharacters),
      })
      if (matches.length >= maxMatches) break
    }
  }
  return matches
}

async function* walkFiles(absoluteDirectory: string, relativeDirectory: string) {
  for await (const entry of walkWorkspace({
    absoluteDirectory,
    relativeDirectory,
    recursive: true,
  })) {
    if (entry.dirent.isFile()) yield entry
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
