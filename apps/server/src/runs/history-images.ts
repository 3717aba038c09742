import type { ChatImage } from '@sprout/protocol/api/images.ts'
import type { FilePart, ModelMessage, TextPart, UserContent } from 'ai'
import { conversationImageBytes, type ImageStore } from '../images/service.ts'

// A user message's images are stored in the history by reference, never as bytes (a message's
// row would hold megabytes of base64): file parts whose data is `sprout-image:{id}`. Before each run they are read into
// the parts the model gets, marked with their id, and marked ones go back to references when the
// run's history is stored (docs/product/images.md).

const referencePrefix = 'sprout-image:'
const gone: TextPart = { type: 'text', text: '[An attached image that is no longer available]' }

type MarkedFilePart = FilePart & { providerOptions?: { sprout?: { imageId?: string } } }

/** A user message: its text, then its images by reference. */
export function userContent(text: string, images: ChatImage[]): UserContent {
  if (images.length === 0) return text
  return [
    { type: 'text', text },
    ...images.map(
      (image): FilePart => ({
        type: 'file',
        data: `${referencePrefix}${image.id}`,
        mediaType: image.media_type,
      }),
    ),
  ]
}

const referencedId = (part: { type: string; data?: unknown }) =>
  part.type === 'file' && typeof part.data === 'string' && part.data.startsWith(referencePrefix)
    ? part.data.slice(referencePrefix.length)
    : undefined

/** The history with each referenced image read from the conversation's images. */
export async function withImageBytes(
  images: ImageStore,
  conversationId: string,
  history: ModelMessage[],
): Promise<ModelMessage[]> {
  const ids = history.flatMap((message) =>
    message.role === 'user' && Array.isArray(message.content)
      ? message.content.flatMap((part) => referencedId(part) ?? [])
      : [],
  )
  if (ids.length === 0) return history
  const stored = await conversationImageBytes(images, conversationId, ids)
  return history.map((message) => {
    if (message.role !== 'user' || !Array.isArray(message.content)) return message
    return {
      ...message,
      content: message.content.map((part) => {
        const id = referencedId(part)
        if (id === undefined) return part
        const image = stored.get(id)
        if (!image) return gone
        const read: MarkedFilePart = {
          type: 'file',
          data: { type: 'data', data: new Uint8Array(image.bytes) },
          mediaType: image.mediaType,
          providerOptions: { sprout: { imageId: id } },
        }
        return read
      }),
    }
  })
}

/** The history to store: each image read for the run back to its reference. */
export function withImageReferences(history: ModelMessage[]): ModelMessage[] {
  return history.map((message) => {
    if (message.role !== 'user' || !Array.isArray(message.content)) return message
    if (!message.content.some((part) => part.type === 'file')) return message
    return {
      ...message,
      content: message.content.map((part) => {
        if (part.type !== 'file') return part
        const id = (part as MarkedFilePart).providerOptions?.sprout?.imageId
        if (id === undefined) return part
        return { type: 'file', data: `${referencePrefix}${id}`, mediaType: part.mediaType }
      }),
    }
  })
}
