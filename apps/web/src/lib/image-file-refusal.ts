import {
  CHAT_IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_UNREADABLE_MESSAGE,
} from '@sprout/protocol/api/images.ts'
import { checkChatImage, isRefusal } from '@sprout/protocol/images/check-chat-image.ts'

/**
 * Why the server would refuse this file as a chat image, in its own words and order, or null:
 * read here first so a wrong file is refused before its bytes travel.
 */
export async function imageFileRefusal(file: Blob): Promise<string | null> {
  // Not read at all when it cannot pass.
  if (file.size > CHAT_IMAGE_MAX_BYTES) return IMAGE_TOO_LARGE_MESSAGE
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await file.arrayBuffer())
  } catch {
    // The file went away or could not be read from the disk after it was chosen.
    return IMAGE_UNREADABLE_MESSAGE
  }
  const checked = checkChatImage(bytes)
  return isRefusal(checked) ? checked.message : null
}
