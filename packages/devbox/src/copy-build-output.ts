import { constants } from 'node:fs'
import { mkdir, open, readdir, realpath } from 'node:fs/promises'
import path from 'node:path'
import { isInside } from './is-inside.ts'

const maxFiles = 20_000
const maxTotalBytes = 500 * 1024 * 1024

/**
 * Copies a build folder written by app code: only regular files and folders, never symbolic
 * links, and each file is checked after opening to really be inside the source folder (app
 * processes may still be running and could swap a file for a link meanwhile).
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
      // O_NONBLOCK: a file swapped for a FIFO meanwhile must not hang the deploy.
      const handle = await open(
        sourcePath,
        constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      )
      try {
        const openedPath = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => sourcePath)
        const stats = await handle.stat()
        if (!stats.isFile() || !isInside(openedPath, sourceRealPath)) continue
        totalBytes += stats.size
        if (totalBytes > maxTotalBytes) throw new Error('The build output is larger than 500 MB')
        await mkdir(path.dirname(destinationPath), { recursive: true })
        const output = await open(destinationPath, 'wx', 0o644)
        try {
          await output.writeFile(await handle.readFile())
        } finally {
          await output.close()
        }
      } finally {
        await handle.close()
      }
    }
  }
  await copyDirectory(sourceRealPath, destinationDirectory)
}
