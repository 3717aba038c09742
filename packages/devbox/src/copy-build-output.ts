import { constants } from 'node:fs'
import { mkdir, open, readdir, realpath } from 'node:fs/promises'
import path from 'node:path'
import { isInside } from './is-inside.ts'

/** What a build folder may hold, however it is copied (here, or as a tar from a pod). */
export const maxFiles = 20_000
export const maxTotalBytes = 500 * 1024 * 1024

/**
 * A regular file inside `root`, read whole; undefined for anything else. Opened without
 * following a link, then checked to really be inside `root` (app processes may still be running
 * and could swap a file for a link meanwhile). `counted` gets its size before it is read, and
 * throws to refuse it.
 */
export async function readFileInside(
  sourcePath: string,
  root: string,
  counted: (size: number) => void,
): Promise<Buffer | undefined> {
  // O_NONBLOCK: a file swapped for a FIFO meanwhile must not hang the copy.
  const handle = await open(
    sourcePath,
    constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  )
  try {
    const openedPath = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => sourcePath)
    const stats = await handle.stat()
    if (!stats.isFile() || !isInside(openedPath, root)) return undefined
    counted(stats.size)
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

/**
 * Copies a build folder written by app code: only regular files and folders, never symbolic
 * links, each file read by `readFileInside`.
 */
export async function copyBuildOutput(
  sourceDirectory: string,
  destinationDirectory: string,
): Promise<void> {
  const sourceRealPath = await realpath(sourceDirectory)
  let files = 0
  let totalBytes = 0

  const copyDirectory = async (source: string, destination: string) => {
    await mkdir(destination, { recursive: true })
    for (const entry of await readdir(source, { withFileTypes: true })) {
      const sourcePath = path.join(source, entry.name)
      const destinationPath = path.join(destination, entry.name)
      if (entry.isDirectory()) {
        await copyDirectory(sourcePath, destinationPath)
        continue
      }
      if (!entry.isFile()) continue
      if (++files > maxFiles) throw new Error(`The build output has more than ${maxFiles} files`)
      const content = await readFileInside(sourcePath, sourceRealPath, (size) => {
        totalBytes += size
        if (totalBytes > maxTotalBytes) throw new Error('The build output is larger than 500 MB')
      })
      if (!content) continue
      await mkdir(path.dirname(destinationPath), { recursive: true })
      const output = await open(destinationPath, 'wx', 0o644)
      try {
        await output.writeFile(content)
      } finally {
        await output.close()
      }
    }
  }
  await copyDirectory(sourceRealPath, destinationDirectory)
}
