import { createWriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { extract } from 'tar-stream'
import { maxFiles, maxTotalBytes } from '../copy-build-output.ts'

/** A refused entry: the whole archive is, and what was written of it stays for the caller to remove. */
export class FolderArchiveError extends Error {
  override name = 'FolderArchiveError'
}

/** An entry's path as written under the destination, or an error for anything that leaves it. */
function relativeNameOf(name: string): string {
  const trimmed = name.replace(/\/+$/, '')
  const parts = trimmed.split('/')
  if (
    trimmed === '' ||
    trimmed.startsWith('/') ||
    parts.some((part) => part === '' || part === '.' || part === '..') ||
    [...trimmed].some((character) => character < ' ' || character === '\\')
  ) {
    throw new FolderArchiveError(
      `The archive names a path outside its folder: ${JSON.stringify(name)}`,
    )
  }
  return parts.join(path.sep)
}

/**
 * Unpacks a tar stream a box wrote (writeFolderTar, run by the in-box agent) into `destination`,
 * treating every byte as hostile (docs/decisions/037-kubernetes-driver-and-test-api-server.md):
 * regular files and folders only, no path out of the folder, no file written twice, within the
 * build output's limits. Links, devices and anything else are refused.
 */
export async function extractFolderTar(input: Readable, destination: string): Promise<void> {
  await mkdir(destination, { recursive: true })
  const extractor = extract()
  input.on('error', (error) => extractor.destroy(error))
  input.pipe(extractor)
  try {
    await unpack(extractor, destination)
  } catch (error) {
    input.destroy()
    throw error
  }
}

async function unpack(extractor: ReturnType<typeof extract>, destination: string) {
  let files = 0
  let totalBytes = 0
  for await (const entry of extractor) {
    const { header } = entry
    const target = path.join(destination, relativeNameOf(header.name))
    if (header.type === 'directory') {
      await mkdir(target, { recursive: true })
      entry.resume()
      continue
    }
    if (header.type !== 'file') {
      throw new FolderArchiveError(
        `The archive holds a ${header.type}: ${JSON.stringify(header.name)}`,
      )
    }
    if (++files > maxFiles)
      throw new FolderArchiveError(`The folder has more than ${maxFiles} files`)
    totalBytes += header.size ?? 0
    if (totalBytes > maxTotalBytes) throw new FolderArchiveError('The folder is larger than 500 MB')
    await mkdir(path.dirname(target), { recursive: true })
    // `wx`: a name given twice, or a folder's name given as a file, is refused.
    await pipeline(entry, createWriteStream(target, { flags: 'wx', mode: 0o644 }))
  }
}
