import {
  CHAT_IMAGE_MAX_BYTES,
  IMAGE_DIMENSIONS_MESSAGE,
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  IMAGE_UNREADABLE_MESSAGE,
} from '@sprout/protocol/api/images.ts'
import { sampleBytes } from '@sprout/protocol/images/testing/image-samples.ts'
import { describe, expect, it } from 'vitest'
import { sampleImageFile, svgNamedPng } from '../testing/image-files.ts'
import { imageFileRefusal } from './image-file-refusal.ts'

/** The sample PNG with other dimensions written into its header. */
function pngOf(width: number, height: number): File {
  const bytes = sampleBytes('png')
  const view = new DataView(bytes.buffer, bytes.byteOffset)
  view.setUint32(16, width)
  view.setUint32(20, height)
  return new File([bytes], 'big.png')
}

describe('imageFileRefusal (docs/product/images.md "Attaching")', () => {
  it('takes PNG, JPEG, WebP and GIF files', async () => {
    for (const sample of ['png', 'jpeg', 'webpLossy', 'gif'] as const) {
      expect(await imageFileRefusal(sampleImageFile(sample))).toBeNull()
    }
  })

  it('reads the type from the bytes: an SVG named .png is refused', async () => {
    expect(await imageFileRefusal(svgNamedPng())).toBe(IMAGE_TYPE_MESSAGE)
  })

  it('refuses a file past 5 MB without reading it', async () => {
    const file = new File([new Uint8Array(CHAT_IMAGE_MAX_BYTES + 1)], 'huge.png')
    expect(await imageFileRefusal(file)).toBe(IMAGE_TOO_LARGE_MESSAGE)
  })

  it('refuses an image past 8,000 pixels a side or 40 megapixels', async () => {
    expect(await imageFileRefusal(pngOf(8001, 10))).toBe(IMAGE_DIMENSIONS_MESSAGE)
    expect(await imageFileRefusal(pngOf(7000, 7000))).toBe(IMAGE_DIMENSIONS_MESSAGE)
    expect(await imageFileRefusal(pngOf(8000, 5000))).toBeNull()
  })

  it('refuses a file cut short', async () => {
    const cut = new File([sampleBytes('png').slice(0, 20)], 'cut.png')
    expect(await imageFileRefusal(cut)).toBe(IMAGE_UNREADABLE_MESSAGE)
  })
})
