import { type ChatImage, imageUrl } from '@sprout/protocol/api/images.ts'
import { useState } from 'react'
import { ImageViewerDialog } from '../../../components/ui/image-viewer-dialog.tsx'
import { imageDescription } from './image-description.ts'

/** A user message's images under its text: thumbnails that open the whole image. */
export function MessageImages({ images }: { images: readonly ChatImage[] }) {
  const [openIndex, setOpenIndex] = useState<number | null>(null)
  const count = images.length
  const open = openIndex === null ? undefined : images[openIndex]
  return (
    <>
      <ul aria-label="Attached images" className="flex max-w-[85%] flex-wrap justify-end gap-2">
        {images.map((image, index) => (
          <li key={image.id}>
            <button
              type="button"
              onClick={() => setOpenIndex(index)}
              title="Open the image"
              className="block overflow-hidden rounded-lg border border-zinc-200 bg-zinc-50 hover:border-zinc-400"
            >
              <img
                src={imageUrl(image.id)}
                alt={imageDescription(image, index, count)}
                loading="lazy"
                className="size-24 object-cover"
              />
            </button>
          </li>
        ))}
      </ul>
      <ImageViewerDialog
        image={open}
        title={`Attached image ${(openIndex ?? 0) + 1} of ${count}`}
        description={open ? imageDescription(open, openIndex ?? 0, count) : ''}
        onClose={() => setOpenIndex(null)}
      />
    </>
  )
}
