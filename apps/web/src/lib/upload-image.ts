import { type ChatImage, chatImageSchema } from '@sprout/protocol/api/images.ts'
import { apiRequest } from './api-client.ts'

/** Uploads an image's bytes as they are (`POST /api/images`); the answer names it in a message. */
export async function uploadImage(file: Blob, signal?: AbortSignal): Promise<ChatImage> {
  return chatImageSchema.parse(
    await apiRequest('/api/images', { method: 'POST', body: file, signal }),
  )
}
