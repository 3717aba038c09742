import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { chatImages } from '@sprout/db/schema/chat-images.ts'
import { checkChatImage, isRefusal } from '@sprout/protocol/images/check-chat-image.ts'
import { AppError } from '../http/app-error.ts'
import { writeImageFile } from './image-files.ts'

// A browser tool call's screenshot (docs/product/tool-calls.md "browser"): a chat image of the
// run's conversation from the start, so it is shown by GET /api/images/{id} to its members and
// deleted with the conversation, like the images its messages carry.

export async function storeToolScreenshot(
  { db, directory }: { db: Database; directory: string },
  owner: { organizationId: string; userId: string; conversationId: string },
  bytes: Buffer,
): Promise<{ id: string; width: number; height: number }> {
  const checked = checkChatImage(bytes)
  if (isRefusal(checked)) throw new AppError(checked.status, checked.message)
  const id = randomUUID()
  // The file first: a row never names bytes that are not there (the sweep spares young files).
  await writeImageFile(directory, id, bytes)
  await db.insert(chatImages).values({
    id,
    organizationId: owner.organizationId,
    userId: owner.userId,
    conversationId: owner.conversationId,
    mediaType: checked.mediaType,
    width: checked.width,
    height: checked.height,
    size: bytes.length,
  })
  return { id, width: checked.width, height: checked.height }
}
