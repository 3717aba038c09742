import { PREVIEW_VIRTUAL_HEIGHT_PX, PREVIEW_VIRTUAL_WIDTH_PX } from '@sprout/protocol/constants.ts'
import { type RefObject, useRef } from 'react'
import { previewScale } from './preview-scale.ts'
import { useElementWidth } from './use-element-width.ts'

type PreviewFrameProps = {
  src: string
  /** Until the user clicks into the preview, a cover takes the click and the page is inert. */
  interactive: boolean
  onActivate: () => void
  /** The iframe, for the Select mode's messages (use-select-mode.ts). */
  frameRef?: RefObject<HTMLIFrameElement | null>
}

/**
 * The app at a virtual 1024x768, scaled to the pane's width (docs/product/builder.md "Preview
 * pane").
 */
export function PreviewFrame({ src, interactive, onActivate, frameRef }: PreviewFrameProps) {
  const containerRef = useRef<HTMLDivElement>(null)
  const width = useElementWidth(containerRef)
  const { scale } = previewScale(width)
  return (
    <div
      ref={containerRef}
      data-testid="preview-viewport"
      className="group relative w-full overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-zinc-200"
      style={{ aspectRatio: `${PREVIEW_VIRTUAL_WIDTH_PX} / ${PREVIEW_VIRTUAL_HEIGHT_PX}` }}
    >
      <iframe
        key={src}
        ref={frameRef}
        src={src}
        title="Application preview"
        // Its own origin already; the sandbox also stops the app from navigating the builder.
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads"
        className="absolute top-0 left-0 origin-top-left border-0 bg-white"
        style={{
          width: PREVIEW_VIRTUAL_WIDTH_PX,
          height: PREVIEW_VIRTUAL_HEIGHT_PX,
          transform: `scale(${scale})`,
          visibility: scale > 0 ? 'visible' : 'hidden',
        }}
      />
      {!interactive && (
        <button
          type="button"
          aria-label="Click to interact with the preview"
          onClick={onActivate}
          className="absolute inset-0 flex cursor-pointer items-end justify-center bg-transparent pb-2 transition-colors hover:bg-zinc-900/5"
        >
          <span className="rounded-full bg-zinc-900/80 px-2.5 py-1 text-[11px] font-medium text-white opacity-0 shadow-sm transition-opacity group-hover:opacity-100">
            Click to interact
          </span>
        </button>
      )}
    </div>
  )
}
