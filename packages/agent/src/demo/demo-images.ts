import type { LanguageModelV4FilePart, LanguageModelV4Message } from '@ai-sdk/provider'
import { CHAT_IMAGE_TYPE_NAMES } from '@sprout/protocol/api/images.ts'
import { type ImageFacts, readImageFacts } from '@sprout/protocol/images/read-image-facts.ts'

/** A file part's bytes when it holds them (`{type: 'data'}`), not a URL or a reference. */
const bytesOf = (file: LanguageModelV4FilePart['data']): Uint8Array | undefined => {
  if (file.type !== 'data') return undefined
  const { data } = file
  return typeof data === 'string' ? new Uint8Array(Buffer.from(data, 'base64')) : data
}

/** What the Demo model can tell of a user message's images: their type and size, read from their bytes. */
export function imagesOf(message: LanguageModelV4Message): ImageFacts[] {
  if (message.role !== 'user') return []
  return message.content.flatMap((part) => {
    if (part.type !== 'file' || !part.mediaType.startsWith('image/')) return []
    const bytes = bytesOf(part.data)
    const facts = bytes ? readImageFacts(bytes) : 'unreadable'
    return typeof facts === 'string' ? [] : [facts]
  })
}

/** 'I can see 2 images: a PNG image of 64 × 48 pixels and a JPEG image of 13 × 9 pixels.' */
export function describeImages(images: ImageFacts[]): string {
  const items = images.map(
    (image) =>
      `a ${CHAT_IMAGE_TYPE_NAMES[image.mediaType]} image of ${image.width} × ${image.height} pixels`,
  )
  const list =
    items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
  return `I can see ${images.length} image${images.length === 1 ? '' : 's'}: ${list}.`
}
