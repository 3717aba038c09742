import type { ChatImage } from '@sprout/protocol/api/images.ts'
import {
  MESSAGE_INPUT_MAX_HEIGHT_PX,
  MESSAGE_INPUT_MIN_HEIGHT_PX,
} from '@sprout/protocol/constants.ts'
import { type KeyboardEvent, type ReactNode, useLayoutEffect, useRef } from 'react'
import { SendIcon, StopIcon } from '../../components/ui/icons.tsx'
import { type ImageAttachments, readyImages } from '../../hooks/use-image-attachments.ts'
import { classNames } from '../../lib/class-names.ts'
import { AttachImagesButton } from './images/attach-images-button.tsx'
import { AttachmentStrip } from './images/attachment-strip.tsx'
import { draftImagesProblem } from './images/draft-images-problem.ts'
import { useImageInput } from './images/use-image-input.ts'
import { SelectionChips } from './selections/selection-chips.tsx'
import type { DraftSelections } from './selections/use-draft-selections.ts'

type ChatInputProps = {
  value: string
  onChange: (value: string) => void
  /** Called with the trimmed, non-empty text and the draft's uploaded images. */
  onSubmit: (text: string, images: ChatImage[]) => void
  /** Escape inside the input: interrupt, or take back queued messages. */
  onEscape?: () => void
  placeholder: string
  disabled?: boolean
  /** While the agent runs an interrupt button shows; sending queues the message instead. */
  isRunning: boolean
  /** False where nothing can be queued (exploration): sending waits for the agent instead. */
  canQueue?: boolean
  isInterrupting?: boolean
  onInterrupt?: () => void
  /** The row under the text: model picker, context usage. */
  footer?: ReactNode
  /** The draft's images; without them the input takes text only. */
  attachments?: ImageAttachments
  /** Why the chosen model cannot take images (docs/product/images.md), or null. */
  imagesRefusal?: string | null
  /** Elements picked in the preview, as chips above the text (docs/product/builder.md "Select mode"). */
  selections?: DraftSelections
}

/**
 * docs/product/builder.md "Chat input": Enter sends, Shift+Enter adds a line, 24-100 px tall as it
 * grows. Images are attached with the button, pasted or dropped (docs/product/images.md).
 */
export function ChatInput({
  value,
  onChange,
  onSubmit,
  onEscape,
  placeholder,
  disabled,
  isRunning,
  canQueue = true,
  isInterrupting,
  onInterrupt,
  footer,
  attachments,
  imagesRefusal,
  selections,
}: ChatInputProps) {
  const textareaRef = useRef<HTMLTextAreaElement>(null)
  const images = attachments?.items ?? []
  const imageInput = useImageInput(disabled ? undefined : attachments?.add)

  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the text
  useLayoutEffect(() => {
    const textarea = textareaRef.current
    if (!textarea) return
    textarea.style.height = 'auto'
    const height = Math.min(
      MESSAGE_INPUT_MAX_HEIGHT_PX,
      Math.max(MESSAGE_INPUT_MIN_HEIGHT_PX, textarea.scrollHeight),
    )
    textarea.style.height = `${height}px`
    textarea.style.overflowY =
      textarea.scrollHeight > MESSAGE_INPUT_MAX_HEIGHT_PX ? 'auto' : 'hidden'
  }, [value])

  // A queued message cannot carry images: they wait for the run to end.
  const pointedAt = selections?.items.length ?? 0
  const blocked =
    Boolean(disabled) || (isRunning && (!canQueue || images.length > 0 || pointedAt > 0))
  const submit = () => {
    const text = value.trim()
    if (blocked || (text === '' && images.length === 0)) return
    const problem = draftImagesProblem(text, images, imagesRefusal)
    if (problem) {
      attachments?.setError(problem)
      return
    }
    onSubmit(text, readyImages(images))
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    } else if (event.key === 'Escape' && onEscape) {
      event.preventDefault()
      onEscape()
    }
  }

  const canSend = (value.trim() !== '' || images.length > 0) && !blocked
  return (
    <div
      {...imageInput.dropProps}
      className={classNames(
        'rounded-2xl border bg-white p-2 shadow-sm focus-within:border-zinc-300 focus-within:ring-2 focus-within:ring-accent-100',
        imageInput.isDragging ? 'border-accent-500 ring-2 ring-accent-100' : 'border-zinc-200',
      )}
    >
      {attachments && <AttachmentStrip items={images} onRemove={attachments.remove} />}
      {selections && <SelectionChips items={selections.items} onRemove={selections.remove} />}
      <textarea
        ref={textareaRef}
        aria-label="Message"
        rows={1}
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        {...imageInput.pasteProps}
        style={{ minHeight: MESSAGE_INPUT_MIN_HEIGHT_PX, maxHeight: MESSAGE_INPUT_MAX_HEIGHT_PX }}
        className="block w-full resize-none border-0 bg-transparent px-2 py-0.5 text-sm leading-6 text-zinc-900 outline-none placeholder:text-zinc-400 focus-visible:outline-none disabled:cursor-not-allowed"
      />
      <div className="mt-2 flex items-center gap-2">
        {attachments && <AttachImagesButton onFiles={attachments.add} disabled={disabled} />}
        <div className="flex min-w-0 flex-1 items-center gap-2">{footer}</div>
        {isRunning && onInterrupt && (
          <button
            type="button"
            onClick={onInterrupt}
            disabled={isInterrupting}
            title="Stop the agent (Esc)"
            aria-label="Interrupt"
            className="flex size-8 items-center justify-center rounded-full border border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-100 disabled:opacity-50"
          >
            <StopIcon className="size-3.5" />
          </button>
        )}
        <button
          type="button"
          onClick={submit}
          disabled={!canSend}
          aria-label={isRunning && canQueue ? 'Queue message' : 'Send message'}
          title={isRunning && canQueue ? 'Queue message (Enter)' : 'Send message (Enter)'}
          className={classNames(
            'flex size-8 items-center justify-center rounded-full transition-colors',
            canSend ? 'bg-zinc-900 text-white hover:bg-zinc-700' : 'bg-zinc-200 text-zinc-400',
          )}
        >
          <SendIcon />
        </button>
      </div>
    </div>
  )
}
