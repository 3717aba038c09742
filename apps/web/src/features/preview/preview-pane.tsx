import type { PreviewSelection } from '@sprout/protocol/api/preview-selections.ts'
import { PREVIEW_PANE_FOCUSED_WIDTH_PX, PREVIEW_PANE_WIDTH_PX } from '@sprout/protocol/constants.ts'
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { useDismiss } from '../../hooks/use-dismiss.ts'
import { classNames } from '../../lib/class-names.ts'
import { PreviewFrame } from './preview-frame.tsx'
import { PreviewToolbar } from './preview-toolbar.tsx'
import { usePreviewSource } from './use-preview-source.ts'
import { useSelectMode } from './use-select-mode.ts'

export type PreviewPaneProps = {
  /** The application's preview and deploy addresses; none: 'No preview available'. */
  previewUrl?: string
  prodUrl?: string
  /**
   * The dev box's readiness; until it is ready the pane says 'Starting your app…', or 'Starting
   * preview…' when the box exists and its dev server starts again after idling. Unknown (the first
   * answer is on its way): 'Opening the preview…', so an idle app never flashes the new app's text.
   */
  readiness?: {
    ready: boolean
    error?: string
    starting_preview?: boolean
    /** Boxes starting before this one (a burst of new apps): 'Waiting for a dev box…'. */
    queue_position?: number
  }
  /** More toolbar buttons, e.g. the admin's deploy button. */
  actions?: ReactNode
  /** Under the preview, e.g. the compact error list. */
  footer?: ReactNode
  /**
   * Reloads the preview whenever it changes: after an agent run, so an edit made while the page
   * was still loading (before its live-reload socket connected) is never left unseen.
   */
  reloadSignal?: number
  /** Takes the whole width instead of 250/500px: the builder's Preview tab on a phone. */
  fill?: boolean
  /** 500px whatever the focus: the error list under the preview is open (its stack is read). */
  wide?: boolean
  /**
   * Takes an element picked in Select mode (docs/product/builder.md "Select mode"); without it the
   * toolbar has no 'Select' button.
   */
  onSelectElement?: (selection: PreviewSelection) => void
}

/**
 * The builder's right pane (docs/product/builder.md): 250px wide, 500px while the user works in the
 * preview. Clicking into the preview focuses it; a press anywhere else (or Escape) lets it go.
 */
export function PreviewPane({
  previewUrl,
  prodUrl,
  readiness,
  actions,
  footer,
  reloadSignal = 0,
  fill = false,
  wide = false,
  onSelectElement,
}: PreviewPaneProps) {
  const paneRef = useRef<HTMLElement>(null)
  const frameRef = useRef<HTMLIFrameElement>(null)
  const [focused, setFocused] = useState(false)
  const blur = useCallback(() => setFocused(false), [])
  useDismiss(paneRef, focused, blur)

  const ready = readiness?.ready === true
  const source = usePreviewSource(previewUrl, ready)
  const { reload } = source
  const handledSignal = useRef(reloadSignal)
  useEffect(() => {
    if (reloadSignal === handledSignal.current) return
    handledSignal.current = reloadSignal
    if (ready) reload()
  }, [reloadSignal, ready, reload])
  const width = focused || wide ? PREVIEW_PANE_FOCUSED_WIDTH_PX : PREVIEW_PANE_WIDTH_PX
  const select = useSelectMode({
    frameRef,
    previewUrl,
    canSelect: Boolean(previewUrl && ready && source.src && !source.error),
    focused,
    focus: () => setFocused(true),
    onSelect: onSelectElement,
  })

  let body: ReactNode
  if (!previewUrl) {
    body = <PreviewMessage title="No preview available" />
  } else if (!readiness) {
    body = <PreviewMessage title="Opening the preview…" busy />
  } else if (readiness.error) {
    body = (
      <PreviewMessage title="Your app could not start" tone="error">
        {readiness.error}
      </PreviewMessage>
    )
  } else if (!ready && readiness.queue_position !== undefined) {
    body = (
      <PreviewMessage title="Waiting for a dev box…" busy>
        {queueText(readiness.queue_position)} It starts by itself when its turn comes.
      </PreviewMessage>
    )
  } else if (!ready && readiness.starting_preview) {
    body = (
      <PreviewMessage title="Starting preview…" busy>
        The dev server was stopped while nobody used it. It is back in a moment.
      </PreviewMessage>
    )
  } else if (!ready) {
    body = (
      <PreviewMessage title="Starting your app…" busy>
        Setting up its dev box. This takes a few seconds.
      </PreviewMessage>
    )
  } else if (source.error) {
    body = (
      <PreviewMessage title="Could not open the preview" tone="error">
        <span className="block">{source.error}</span>
        <Button variant="secondary" size="sm" className="mt-3" onClick={source.reload}>
          Try again
        </Button>
      </PreviewMessage>
    )
  } else if (!source.src) {
    body = <PreviewMessage title="Opening the preview…" busy />
  } else {
    body = (
      <PreviewFrame
        src={source.src}
        interactive={focused}
        onActivate={() => setFocused(true)}
        frameRef={frameRef}
      />
    )
  }

  return (
    <aside
      ref={paneRef}
      aria-label="Preview"
      data-focused={focused}
      style={fill ? undefined : { width }}
      className={classNames(
        'flex shrink-0 flex-col border-zinc-200 bg-zinc-50/70',
        fill ? 'min-w-0 flex-1' : 'border-l transition-[width] duration-200 ease-out',
      )}
    >
      <PreviewToolbar
        previewUrl={previewUrl}
        prodUrl={prodUrl}
        status={readiness?.error ? 'failed' : ready ? 'ready' : 'starting'}
        canRefresh={ready && !!previewUrl}
        onRefresh={source.reload}
        actions={actions}
        select={select.toolbar}
      />
      <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto p-3">
        {body}
        {previewUrl && ready && source.src && (
          <p className="text-center text-[11px] text-zinc-500">
            {select.selecting
              ? 'Click an element to show it to the agent · Esc to stop'
              : focused
                ? 'Click outside the preview to shrink it'
                : 'Click the preview to interact'}
          </p>
        )}
        {footer}
      </div>
    </aside>
  )
}

/** '7 ahead of you.', 'You are next.' */
export function queueText(position: number) {
  return position === 0 ? 'You are next.' : `${position} ahead of you.`
}

function PreviewMessage({
  title,
  children,
  busy,
  tone = 'neutral',
}: {
  title: string
  children?: ReactNode
  busy?: boolean
  tone?: 'neutral' | 'error'
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={classNames(
        'flex aspect-[4/3] w-full flex-col items-center justify-center rounded-lg border border-dashed px-4 text-center',
        tone === 'error' ? 'border-red-200 bg-red-50/60' : 'border-zinc-200 bg-white',
      )}
    >
      {busy && <Spinner className="mb-3 size-5" />}
      <p
        className={classNames(
          'text-sm font-medium',
          tone === 'error' ? 'text-red-700' : 'text-zinc-700',
        )}
      >
        {title}
      </p>
      {children && <div className="mt-1 text-xs text-zinc-500">{children}</div>}
    </div>
  )
}
