import { CHAT_IMAGE_TYPES } from '@sprout/protocol/api/images.ts'
import { useRef } from 'react'
import { ImageIcon } from '../../../components/ui/icons.tsx'

/** The input's image button: opens the file picker, limited to the types Sprout takes. */
export function AttachImagesButton({
  onFiles,
  disabled,
}: {
  onFiles: (files: File[]) => void
  disabled?: boolean
}) {
  const inputRef = useRef<HTMLInputElement>(null)
  return (
    <>
      <button
        type="button"
        onClick={() => inputRef.current?.click()}
        disabled={disabled}
        aria-label="Attach images"
        title="Attach images (or paste or drop them)"
        className="flex size-8 shrink-0 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:text-zinc-300 disabled:hover:bg-transparent"
      >
        <ImageIcon className="size-5" />
      </button>
      <input
        ref={inputRef}
        type="file"
        accept={CHAT_IMAGE_TYPES.join(',')}
        multiple
        hidden
        tabIndex={-1}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])]
          // Choosing the same file again must fire another change.
          event.target.value = ''
          if (files.length > 0) onFiles(files)
        }}
      />
    </>
  )
}
