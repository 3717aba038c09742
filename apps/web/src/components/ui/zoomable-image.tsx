import { type ChatImage, imageUrl } from '@sprout/protocol/api/images.ts'
import { useState } from 'react'
import { classNames } from '../../lib/class-names.ts'
import { ImageViewerDialog } from './image-viewer-dialog.tsx'

type ZoomableImageProps = {
  /** A stored image (GET /api/images/{id}): a check's or a tool's screenshot. */
  image: Pick<ChatImage, 'id' | 'width' | 'height'>
  description: string
  viewerTitle: string
  className?: string
  imageClassName?: string
}

/** A thumbnail that opens the whole image in the viewer; Escape or Close puts it away. */
export function ZoomableImage({
  image,
  description,
  viewerTitle,
  className,
  imageClassName,
}: ZoomableImageProps) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        title="Open the screenshot"
        className={classNames(
          'block overflow-hidden border border-zinc-200 bg-zinc-50 hover:border-zinc-400 focus-visible:outline-2 focus-visible:outline-accent-600',
          className,
        )}
      >
        <img
          src={imageUrl(image.id)}
          alt={description}
          loading="lazy"
          width={image.width}
          height={image.height}
          className={imageClassName}
        />
      </button>
      <ImageViewerDialog
        image={open ? image : undefined}
        title={viewerTitle}
        description={description}
        onClose={() => setOpen(false)}
      />
    </>
  )
}
