import type { Database } from '@sprout/db/database.ts'
import { chatImages } from '@sprout/db/schema/chat-images.ts'
import { writeCheckedImage } from './image-files.ts'

// A browser tool call's screenshot (docs/product/tool-calls.md "browser"): a chat image of the
// run's conversation from the start, so it is shown by GET /api/images/{id} to its members and
// deleted with the conversation, like the images its messages carry.

export async function storeToolScreenshot(
  { db, directory }: { db: Database; directory: string },
  owner: { organizationId: string; userId: string; conversationId: string },
  bytes: Buffer,
): Promise<{ id: string; width: number; height: number }> {
  const image = await writeCheckedImage(directory, bytes)
  await db.insert(chatImages).values({ ...image, ...owner })
  return { id: image.id, width: image.width, height: image.height }
}
