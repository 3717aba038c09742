import { readdir } from 'node:fs/promises'
import type { OpenedDirectory } from './workspace-descriptors.ts'
import { isChangedMeanwhile, openChildDirectory } from './workspace-descriptors.ts'

/** Folders that file listings and searches never enter: dependencies, git, tool caches in HOME. */
export const skippedDirectories = new Set(['node_modules', '.git', '.npm', '.cache'])

/** An entry named `name` in `directory`, which stays open until the walk moves on. */
export type WalkedEntry = {
  directory: OpenedDirectory
  name: string
  relativePath: string
  type: 'file' | 'directory'
}

/**
 * Yields files and folders below the opened `directory` in name order, without following
 * symbolic links (they are skipped) and without entering `skippedDirectories`. Folders are
 * entered by descriptor (workspace-descriptors.ts); one swapped for a link meanwhile is skipped.
 */
export async function* walkWorkspace(input: {
  directory: OpenedDirectory
  relativeDirectory: string
  recursive: boolean
  workspaceRealPath: string
}): AsyncGenerator<WalkedEntry> {
  const dirents = await readdir(input.directory.path, { withFileTypes: true })
  dirents.sort((first, second) =>
    first.name < second.name ? -1 : first.name > second.name ? 1 : 0,
  )
  for (const dirent of dirents) {
    if (!dirent.isFile() && !dirent.isDirectory()) continue
    if (dirent.isDirectory() && skippedDirectories.has(dirent.name)) continue
    const relativePath = input.relativeDirectory
      ? `${input.relativeDirectory}/${dirent.name}`
      : dirent.name
    const type = dirent.isDirectory() ? 'directory' : 'file'
    yield { directory: input.directory, name: dirent.name, relativePath, type }
    if (!input.recursive || type !== 'directory') continue
    const scope = {
      workspaceRealPath: input.workspaceRealPath,
      shown: JSON.stringify(relativePath),
    }
    const child = await openChildDirectory(input.directory, dirent.name, scope).catch(
      (error: unknown) => {
        if (isChangedMeanwhile(error)) return undefined
        throw error
      },
    )
    if (!child) continue
    try {
      yield* walkWorkspace({ ...input, directory: child, relativeDirectory: relativePath })
    } finally {
      await child.handle.close()
    }
  }
}
