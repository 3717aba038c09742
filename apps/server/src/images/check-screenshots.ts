import { randomUUID } from 'node:crypto'
import { chatImages } from '@sprout/db/schema/chat-images.ts'
import { checkScreenshots } from '@sprout/db/schema/check-screenshots.ts'
import type { ChatImage, ChatImageType } from '@sprout/protocol/api/images.ts'
import { and, desc, eq, inArray, notInArray } from 'drizzle-orm'
import { type ImageStore, readImageFile, writeCheckedImage, writeImageFile } from './image-files.ts'

// A failing acceptance test's screenshot (docs/product/checks.md "Acceptance tests"): an image
// file like a chat image, its row naming the application it shows. Read by GET /api/images/{id}.

/** Screenshots kept per application: the last checks' failures, not every one ever taken. */
const KEPT_PER_APPLICATION = 30

export async function storeCheckScreenshot(
  { db, directory }: ImageStore,
  owner: { organizationId: string; applicationId: string },
  bytes: Buffer,
): Promise<{ id: string; width: number; height: number }> {
  const image = await writeCheckedImage(directory, bytes)
  await db.insert(checkScreenshots).values({ ...image, ...owner })
  // Older ones go; the image sweep removes their files (image-files.ts).
  const kept = db
    .select({ id: checkScreenshots.id })
    .from(checkScreenshots)
    .where(eq(checkScreenshots.applicationId, owner.applicationId))
    .orderBy(desc(checkScreenshots.createdAt))
    .limit(KEPT_PER_APPLICATION)
  await db
    .delete(checkScreenshots)
    .where(
      and(
        eq(checkScreenshots.applicationId, owner.applicationId),
        notInArray(checkScreenshots.id, kept),
      ),
    )
  return { id: image.id, width: image.width, height: image.height }
}

/**
 * Gives a check's screenshots to a conversation as images of a message (the repair turn's,
 * docs/product/checks.md "One repair"): each a chat image of its own, the file copied, so the
 * conversation keeps it when the check's are replaced. Screenshots of another application, or
 * gone, are left out.
 */
export async function screenshotsAsChatImages(
  { db, directory }: ImageStore,
  input: {
    ids: string[]
    applicationId: string
    organizationId: string
    userId: string
    conversationId: string
  },
): Promise<ChatImage[]> {
  if (input.ids.length === 0) return []
  const rows = await db
    .select()
    .from(checkScreenshots)
    .where(
      and(
        inArray(checkScreenshots.id, input.ids),
        eq(checkScreenshots.applicationId, input.applicationId),
      ),
    )
  const images: ChatImage[] = []
  for (const row of rows) {
    const bytes = await readImageFile(directory, row.id)
    if (!bytes) continue
    const id = randomUUID()
    await writeImageFile(directory, id, bytes)
    await db.insert(chatImages).values({
      id,
      organizationId: input.organizationId,
      userId: input.userId,
      conversationId: input.conversationId,
      mediaType: row.mediaType,
      width: row.width,
      height: row.height,
      size: row.size,
    })
    images.push({
      id,
      media_type: row.mediaType as ChatImageType,
      width: row.width,
      height: row.height,
      size: row.size,
    })
  }
  return images
}
