import { CHAT_IMAGES_PER_MESSAGE } from '@sprout/protocol/api/images.ts'
import type { ImageAttachment } from '../../../hooks/use-image-attachments.ts'
import {
  IMAGES_NEED_TEXT_MESSAGE,
  IMAGES_UPLOADING_MESSAGE,
  TOO_MANY_IMAGES_MESSAGE,
} from '../../../lib/chat-image-texts.ts'

/**
 * Why a draft holding images cannot be sent yet, or null: its uploads must have finished, the
 * server wants text with them, and the chosen model must read images (`modelRefusal`).
 */
export function draftImagesProblem(
  text: string,
  items: readonly ImageAttachment[],
  modelRefusal: string | null | undefined,
): string | null {
  if (items.length === 0) return null
  if (items.some((item) => item.image === null)) return IMAGES_UPLOADING_MESSAGE
  if (items.length > CHAT_IMAGES_PER_MESSAGE) return TOO_MANY_IMAGES_MESSAGE
  if (text.trim() === '') return IMAGES_NEED_TEXT_MESSAGE
  return modelRefusal ?? null
}
