import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { chatImages } from '@sprout/db/schema/chat-images.ts'
import { checkScreenshots } from '@sprout/db/schema/check-screenshots.ts'
import {
  CHAT_IMAGES_UNSENT_MAX,
  type ChatImage,
  type ChatImageType,
  IMAGES_NOT_FOUND_MESSAGE,
  IMAGES_UNSENT_MESSAGE,
} from '@sprout/protocol/api/images.ts'
import { checkChatImage, isRefusal } from '@sprout/protocol/images/check-chat-image.ts'
import { and, count, eq, inArray, isNull, lt, or } from 'drizzle-orm'
import type { MembershipCache } from '../auth/auth-cache.ts'
import { AppError, notFound, tooManyRequests } from '../http/app-error.ts'
import { findMembership } from '../organizations/service.ts'
import { type ImageStore, readImageFile, removeImageFile, writeImageFile } from './image-files.ts'

export { screenshotsAsChatImages, storeCheckScreenshot } from './check-screenshots.ts'
export { type ImageStore, imagesDirOf } from './image-files.ts'
export { storeToolScreenshot } from './tool-screenshots.ts'

/** An upload no message named within this long is removed at its uploader's next upload. */
const unattachedKeptMs = 60 * 60 * 1000

const present = (row: {
  id: string
  mediaType: string
  width: number
  height: number
  size: number
}): ChatImage => ({
  id: row.id,
  media_type: row.mediaType as ChatImageType,
  width: row.width,
  height: row.height,
  size: row.size,
})

const presented = {
  id: chatImages.id,
  mediaType: chatImages.mediaType,
  width: chatImages.width,
  height: chatImages.height,
  size: chatImages.size,
}

/**
 * Stores an uploaded image (docs/product/images.md) once its own bytes say it is a PNG, JPEG,
 * WebP or GIF within the limits; a refusal stores nothing.
 */
export async function storeImage(
  { db, directory }: ImageStore,
  owner: { organizationId: string; userId: string },
  bytes: Buffer,
): Promise<ChatImage> {
  const checked = checkChatImage(bytes)
  if (isRefusal(checked)) throw new AppError(checked.status, checked.message)
  const { width, height } = checked
  const abandoned = await db
    .delete(chatImages)
    .where(
      and(
        eq(chatImages.userId, owner.userId),
        isNull(chatImages.conversationId),
        lt(chatImages.createdAt, new Date(Date.now() - unattachedKeptMs)),
      ),
    )
    .returning({ id: chatImages.id })
  for (const { id } of abandoned) await removeImageFile(directory, id)
  // Uploads are cheap to send and each is kept: unbounded, one person could fill the disk.
  const [unsent] = await db
    .select({ count: count() })
    .from(chatImages)
    .where(and(eq(chatImages.userId, owner.userId), isNull(chatImages.conversationId)))
  if ((unsent?.count ?? 0) >= CHAT_IMAGES_UNSENT_MAX)
    throw tooManyRequests(IMAGES_UNSENT_MESSAGE, 60)
  const id = randomUUID()
  // The file first: a row never names bytes that are not there (the sweep spares young files).
  await writeImageFile(directory, id, bytes)
  const [row] = await db
    .insert(chatImages)
    .values({
      id,
      organizationId: owner.organizationId,
      userId: owner.userId,
      mediaType: checked.mediaType,
      width,
      height,
      size: bytes.length,
    })
    .returning(presented)
  if (!row) throw new Error('The image was not stored')
  return present(row)
}

/** Whose an image is: a chat image's row, or a check's screenshot's (check-screenshots.ts). */
async function imageOwner(db: Database, id: string) {
  const [chatImage] = await db
    .select({ organizationId: chatImages.organizationId, mediaType: chatImages.mediaType })
    .from(chatImages)
    .where(eq(chatImages.id, id))
    .limit(1)
  if (chatImage) return chatImage
  const [screenshot] = await db
    .select({
      organizationId: checkScreenshots.organizationId,
      mediaType: checkScreenshots.mediaType,
    })
    .from(checkScreenshots)
    .where(eq(checkScreenshots.id, id))
    .limit(1)
  return screenshot
}

/** The image's bytes for a member of its organization; a 404 for anyone else, as for no image. */
export async function readImageForMember(
  context: ImageStore & { userId: string; memberships: MembershipCache },
  id: string,
): Promise<{ mediaType: string; bytes: Buffer }> {
  const row = await imageOwner(context.db, id)
  const bytes =
    row && (await findMembership(context, row.organizationId))
      ? await readImageFile(context.directory, id)
      : undefined
  if (!row || !bytes) throw notFound('Image not found')
  return { mediaType: row.mediaType, bytes }
}

/** The sender's own uploads among `ids`, in this organization. */
const ownUploads = (input: { ids: string[]; organizationId: string; userId: string }) =>
  and(
    inArray(chatImages.id, input.ids),
    eq(chatImages.organizationId, input.organizationId),
    eq(chatImages.userId, input.userId),
  )

/**
 * Binds the images a message names to its conversation, in the message's order: each must be
 * the sender's own upload in this organization, not yet sent with another conversation's message
 * (another organization's or person's id is a 404, as an unknown one).
 */
export async function attachImages(
  db: Database,
  input: { ids: string[]; organizationId: string; userId: string; conversationId: string },
): Promise<ChatImage[]> {
  const ids = [...new Set(input.ids)]
  if (ids.length === 0) return []
  const rows = await db
    .update(chatImages)
    .set({ conversationId: input.conversationId })
    .where(
      and(
        ownUploads({ ...input, ids }),
        or(isNull(chatImages.conversationId), eq(chatImages.conversationId, input.conversationId)),
      ),
    )
    .returning(presented)
  if (rows.length !== ids.length) throw notFound(IMAGES_NOT_FOUND_MESSAGE)
  const byId = new Map(rows.map((row) => [row.id, present(row)]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/** Throws as attachImages would, binding nothing: before a conversation is made for them. */
export async function assertOwnImages(
  db: Database,
  input: { ids: string[]; organizationId: string; userId: string },
): Promise<void> {
  const ids = [...new Set(input.ids)]
  if (ids.length === 0) return
  const rows = await db
    .select({ id: chatImages.id })
    .from(chatImages)
    .where(and(ownUploads({ ...input, ids }), isNull(chatImages.conversationId)))
  if (rows.length !== ids.length) throw notFound(IMAGES_NOT_FOUND_MESSAGE)
}

/** The bytes of a conversation's images by id, for the model (runs/history-images.ts). */
export async function conversationImageBytes(
  { db, directory }: ImageStore,
  conversationId: string,
  ids: string[],
): Promise<Map<string, { mediaType: string; bytes: Buffer }>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({ id: chatImages.id, mediaType: chatImages.mediaType })
    .from(chatImages)
    .where(and(eq(chatImages.conversationId, conversationId), inArray(chatImages.id, ids)))
  const read = await Promise.all(
    rows.map(async (row) => {
      const bytes = await readImageFile(directory, row.id)
      return bytes ? ([row.id, { mediaType: row.mediaType, bytes }] as const) : undefined
    }),
  )
  return new Map(read.filter((entry) => entry !== undefined))
}
