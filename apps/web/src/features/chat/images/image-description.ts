import { CHAT_IMAGE_TYPE_NAMES, type ChatImage } from '@sprout/protocol/api/images.ts'

/** An attached image's alt text: 'Attached image 1 of 2, PNG 640 × 480'. */
export function imageDescription(image: ChatImage, index: number, count: number): string {
  return `Attached image ${index + 1} of ${count}, ${CHAT_IMAGE_TYPE_NAMES[image.media_type]} ${image.width} × ${image.height}`
}
