import { type ChatImage, imageUrl } from '@sprout/protocol/api/images.ts'
import { Button } from './button.tsx'
import { Dialog } from './dialog.tsx'

type ImageViewerDialogProps = {
  /** The image shown (a message's, a check's or a tool's screenshot); undefined: closed. */
  image: Pick<ChatImage, 'id' | 'width' | 'height'> | undefined
  title: string
  description: string
  onClose: () => void
}

/** A stored image at full size, shrunk to fit the window; Escape or Close puts it away. */
export function ImageViewerDialog({ image, title, description, onClose }: ImageViewerDialogProps) {
  return (
    <Dialog
      open={image !== undefined}
      title={title}
      size="fit"
      onClose={onClose}
      footer={
        <Button variant="ghost" size="sm" onClick={onClose}>
          Close
        </Button>
      }
    >
      {image && (
        <img
          src={imageUrl(image.id)}
          alt={description}
          width={image.width}
          height={image.height}
          className="mx-auto h-auto max-h-[calc(100dvh-12rem)] w-auto max-w-full rounded-lg object-contain"
        />
      )}
    </Dialog>
  )
}
