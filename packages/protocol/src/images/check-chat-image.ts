import {
  CHAT_IMAGE_MAX_BYTES,
  CHAT_IMAGE_MAX_PIXELS,
  CHAT_IMAGE_MAX_SIDE,
  IMAGE_DIMENSIONS_MESSAGE,
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  IMAGE_UNREADABLE_MESSAGE,
} from '../api/images.ts'
import { type ImageFacts, readImageFacts } from './read-image-facts.ts'

/** Why an image is refused: its HTTP status and the words the server and the web both say. */
export type ChatImageRefusal = { status: 400 | 413 | 415; message: string }

/**
 * The image's facts, or why it cannot be attached to a message (docs/product/images.md
 * "Attaching"), in one order: its size, its type by content, its header, its pixels.
 */
export function checkChatImage(bytes: Uint8Array): ImageFacts | ChatImageRefusal {
  if (bytes.length > CHAT_IMAGE_MAX_BYTES) return { status: 413, message: IMAGE_TOO_LARGE_MESSAGE }
  const facts = readImageFacts(bytes)
  if (facts === 'type') return { status: 415, message: IMAGE_TYPE_MESSAGE }
  if (facts === 'unreadable') return { status: 400, message: IMAGE_UNREADABLE_MESSAGE }
  const { width, height } = facts
  const tooLarge =
    width > CHAT_IMAGE_MAX_SIDE ||
    height > CHAT_IMAGE_MAX_SIDE ||
    width * height > CHAT_IMAGE_MAX_PIXELS
  return tooLarge ? { status: 400, message: IMAGE_DIMENSIONS_MESSAGE } : facts
}

export const isRefusal = (checked: ImageFacts | ChatImageRefusal): checked is ChatImageRefusal =>
  'message' in checked
