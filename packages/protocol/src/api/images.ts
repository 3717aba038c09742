import { z } from 'zod'
import { idText } from './input-limits.ts'

// Images a user attaches to a chat message (docs/product/images.md): uploaded first with
// POST /api/images (the raw bytes), then named by id in the message.

export const CHAT_IMAGE_MAX_BYTES = 5 * 1024 * 1024
export const CHAT_IMAGES_PER_MESSAGE = 4
/** Neither side past this, as the providers take them. */
export const CHAT_IMAGE_MAX_SIDE = 8000
/** Nor more pixels than this: a small file that would decode into gigabytes is refused. */
export const CHAT_IMAGE_MAX_PIXELS = 40_000_000
export const CHAT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
export type ChatImageType = (typeof CHAT_IMAGE_TYPES)[number]
/** How an image's type is named to people: 'a PNG image'. */
export const CHAT_IMAGE_TYPE_NAMES: Record<ChatImageType, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
}

/** What the server answers to an upload, and what a user message's echo lists. */
export const chatImageSchema = z.object({
  id: z.string(),
  media_type: z.enum(CHAT_IMAGE_TYPES),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  size: z.number().int().positive(),
})
export type ChatImage = z.infer<typeof chatImageSchema>

/** A message's images, by the ids their uploads answered; at most CHAT_IMAGES_PER_MESSAGE. */
export const messageImagesSchema = z
  .array(idText())
  .max(CHAT_IMAGES_PER_MESSAGE, `must list at most ${CHAT_IMAGES_PER_MESSAGE} images`)
  .optional()

/** Uploads a person may have that no message named yet (a draft's): a bound on what one can store. */
export const CHAT_IMAGES_UNSENT_MAX = 20

export const imageUrl = (id: string) => `/api/images/${encodeURIComponent(id)}`

export const IMAGE_TOO_LARGE_MESSAGE = `Image is too large: the limit is ${CHAT_IMAGE_MAX_BYTES / 1024 / 1024} MB`
export const IMAGE_TYPE_MESSAGE = 'Only PNG, JPEG, WebP and GIF images can be attached'
export const IMAGE_DIMENSIONS_MESSAGE = `Image is too large: at most ${CHAT_IMAGE_MAX_SIDE.toLocaleString('en-US')} pixels a side and ${CHAT_IMAGE_MAX_PIXELS / 1_000_000} megapixels`
export const IMAGE_UNREADABLE_MESSAGE =
  'The image could not be read: its file is damaged or cut short'
export const IMAGES_UNSENT_MESSAGE = `${CHAT_IMAGES_UNSENT_MAX} images are waiting to be sent already: send them, or wait an hour for the unsent ones to go`
export const IMAGES_NOT_FOUND_MESSAGE = 'An attached image was not found; attach it again'
