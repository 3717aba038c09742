import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'

/** Folders that file listings and searches never enter: dependencies, git, tool caches in HOME. */
export const skippedDirectories = new Set(['node_modules', '.git', '.npm', '.cache'])

export type WalkedEntry = { absolutePath: string; relativePath: string; dirent: Dirent }

/**
 * Yields files and folders below `absoluteDirectory` in name order, without following symbolic
 * links (they are skipped) and without entering `skippedDirectories`.
 */
export async function* walkWorkspace(input: {
  absoluteDirectory: string
  relativeDirectory: string
  recursive: boolean
}): AsyncGenerator<WalkedEntry> {
  const dirents = await readdir(input.absoluteDirectory, { withFileTypes: true })
  dirents.sort((first, second) =>
    first.name < second.name ? -1 : first.name > second.name ? 1 : 0,
  )
  for (const dirent of dirents) {
    if (dirent.isSymbolicLink()) continue
    if (!dirent.isFile() && !dirent.isDirectory()) continue
    if (dirent.isDirectory() && skippedDirectories.has(dirent.name)) continue
    const absolutePath = path.join(input.absoluteDirectory, dirent.name)
    const relativePath = input.relativeDirectory
      ? `${input.relativeDirectory}/${dirent.name}`
      : dirent.name
    yield { absolutePath, relativePath, dirent }
    if (input.recursive && dirent.isDirectory()) {
      yield* walkWorkspace({
        absoluteDirectory: absolutePath,
        relativeDirectory: relativePath,
        recursive: true,
      })
    }
  }
}
