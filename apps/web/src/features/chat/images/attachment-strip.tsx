import { CrossIcon } from '../../../components/ui/icons.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import type { ImageAttachment } from '../../../hooks/use-image-attachments.ts'
import { imageDescription } from './image-description.ts'

/** The draft's images above the text: a spinner while each uploads, and a remove button. */
export function AttachmentStrip({
  items,
  onRemove,
}: {
  items: readonly ImageAttachment[]
  onRemove: (key: string) => void
}) {
  if (items.length === 0) return null
  return (
    <ul aria-label="Images to send" className="flex flex-wrap gap-2 px-1 pb-2">
      {items.map((item, index) => {
        const label = item.image
          ? imageDescription(item.image, index, items.length)
          : `${item.name || 'Image'}, uploading`
        return (
          <li
            key={item.key}
            data-testid="draft-image"
            aria-busy={item.image === null}
            className="relative size-16 shrink-0"
          >
            {/* The clipping is the picture's only: the remove button's focus ring shows whole. */}
            <div className="size-full overflow-hidden rounded-lg border border-zinc-200 bg-zinc-50">
              {item.previewUrl && (
                <img src={item.previewUrl} alt={label} className="size-full object-cover" />
              )}
            </div>
            {item.image === null && (
              <span className="absolute inset-0 flex items-center justify-center rounded-lg bg-white/60">
                <Spinner className="size-5" />
                {!item.previewUrl && <span className="sr-only">{label}</span>}
              </span>
            )}
            <button
              type="button"
              onClick={() => onRemove(item.key)}
              aria-label="Remove image"
              title="Remove image"
              className="absolute top-0.5 right-0.5 flex size-5 items-center justify-center rounded-full bg-zinc-900/70 text-white hover:bg-zinc-900"
            >
              <CrossIcon className="size-3.5" strokeWidth="2" />
            </button>
          </li>
        )
      })}
    </ul>
  )
}
