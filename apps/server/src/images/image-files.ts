import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Database } from '@sprout/db/database.ts'
import { chatImages } from '@sprout/db/schema/chat-images.ts'
import { checkScreenshots } from '@sprout/db/schema/check-screenshots.ts'
import { checkChatImage, isRefusal } from '@sprout/protocol/images/check-chat-image.ts'
import { inArray } from 'drizzle-orm'
import type { Config } from '../config/config.ts'
import { AppError } from '../http/app-error.ts'

// An image's bytes are a file named by its id, its row the rest (docs/decisions/043-chat-images.md):
// a 5 MB value through PGlite took a second each way, a file a few milliseconds.

/** Where images are: their rows, and the folder of their bytes. */
export type ImageStore = { db: Database; directory: string }

/** Where images are kept: the shared folder when there is one, so any instance reads them. */
export const imagesDirOf = (config: Pick<Config, 'dataDir' | 'sharedDir'>) =>
  path.join(config.sharedDir ?? config.dataDir, 'chat-images')

const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** A file younger than this may be an upload whose row is not committed yet. */
const sweepGraceMs = 60_000

const fileOf = (directory: string, id: string) => {
  // Ids are the server's own UUIDs; anything else never names a file.
  if (!idPattern.test(id)) throw new Error(`Not an image id: ${JSON.stringify(id)}`)
  return path.join(directory, id)
}

/**
 * A new image's file, once its own bytes say it is a PNG, JPEG, WebP or GIF within the limits
 * (a refusal writes nothing); its facts for the row that names it. The file first: a row never
 * names bytes that are not there (the sweep spares young files).
 */
export async function writeCheckedImage(directory: string, bytes: Buffer) {
  const checked = checkChatImage(bytes)
  if (isRefusal(checked)) throw new AppError(checked.status, checked.message)
  const id = randomUUID()
  await writeImageFile(directory, id, bytes)
  const { mediaType, width, height } = checked
  return { id, mediaType, width, height, size: bytes.length }
}

/** Writes the bytes whole or not at all (a temporary name, then a rename). */
export async function writeImageFile(directory: string, id: string, bytes: Buffer) {
  await mkdir(directory, { recursive: true, mode: 0o700 })
  const temporary = path.join(directory, `.${randomUUID()}.part`)
  await writeFile(temporary, bytes, { mode: 0o600 })
  await rename(temporary, fileOf(directory, id))
}

/** The bytes, or undefined when the file is gone (swept with its conversation). */
export async function readImageFile(directory: string, id: string): Promise<Buffer | undefined> {
  if (!idPattern.test(id)) return undefined
  try {
    return await readFile(fileOf(directory, id))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

export async function removeImageFile(directory: string, id: string) {
  await unlink(fileOf(directory, id)).catch(() => undefined)
}

/**
 * Removes the files whose row is gone: their conversation, application or uploader was deleted
 * (the rows go by the database's cascades), the upload was never sent, or a check's screenshot
 * was replaced by newer ones (check-screenshots.ts). Returns how many.
 */
export async function sweepImageFiles(db: Database, directory: string): Promise<number> {
  let names: string[]
  try {
    names = await readdir(directory)
  } catch {
    return 0
  }
  let removed = 0
  for (let start = 0; start < names.length; start += 500) {
    const batch = names.slice(start, start + 500)
    const ids = batch.filter((name) => idPattern.test(name))
    const kept = new Set(
      ids.length === 0
        ? []
        : [
            ...(await db
              .select({ id: chatImages.id })
              .from(chatImages)
              .where(inArray(chatImages.id, ids))),
            ...(await db
              .select({ id: checkScreenshots.id })
              .from(checkScreenshots)
              .where(inArray(checkScreenshots.id, ids))),
          ].map((row) => row.id),
    )
    for (const name of batch) {
      if (kept.has(name)) continue
      const file = path.join(directory, name)
      const stats = await stat(file).catch(() => undefined)
      if (!stats?.isFile() || Date.now() - stats.mtimeMs < sweepGraceMs) continue
      await unlink(file).catch(() => undefined)
      removed += 1
    }
  }
  return removed
}
