import { useLayoutEffect, useState } from 'react'
import { createPortal } from 'react-dom'
import { CrossIcon } from '../../components/ui/icons.tsx'
import { ScrollBlock } from '../../components/ui/scroll-block.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { classNames } from '../../lib/class-names.ts'

type DeployNoticeProps = {
  kind: 'progress' | 'success' | 'failure'
  message: string
  onClose?: () => void
}

/**
 * A toast at the top right, under the navbar, the Preview and Code tabs and the preview's
 * toolbar, so it never covers the chat's input or the toolbar's buttons (on a phone the
 * builder's tabs). A failure keeps the
 * build's output readable until it is closed.
 */
export function DeployNotice({ kind, message, onClose }: DeployNoticeProps) {
  const [headline, ...details] = message.split('\n')
  const top = useBelowPreviewToolbar()
  return createPortal(
    <div
      role={kind === 'failure' ? 'alert' : 'status'}
      data-testid="deploy-notice"
      style={{ top }}
      className={classNames(
        'fixed right-4 z-50 flex w-[min(28rem,calc(100vw-2rem))] items-start gap-3 rounded-xl border bg-white p-4 text-sm shadow-xl',
        kind === 'failure' ? 'border-red-200' : 'border-zinc-200',
      )}
    >
      <span
        aria-hidden="true"
        className={classNames(
          'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold text-white',
          kind === 'success' && 'bg-accent-600',
          kind === 'failure' && 'bg-red-600',
        )}
      >
        {kind === 'progress' ? (
          <Spinner className="size-5" />
        ) : (
          <svg viewBox="0 0 20 20" aria-hidden="true" className="size-3.5">
            <path
              d={kind === 'success' ? 'm5.5 10.5 3 3 6-7' : 'M10 5.5v5.5m0 3v.01'}
              fill="none"
              stroke="currentColor"
              strokeWidth="2.2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        )}
      </span>
      <div className="min-w-0 flex-1">
        <p
          className={classNames(
            'font-medium',
            kind === 'failure' ? 'text-red-700' : 'text-zinc-900',
          )}
        >
          {headline}
        </p>
        {details.length > 0 && (
          <ScrollBlock
            label="Details"
            className="mt-2 max-h-48 overflow-auto rounded-lg bg-zinc-950 p-3 font-mono text-[11px] leading-relaxed whitespace-pre-wrap text-zinc-100"
          >
            {details.join('\n')}
          </ScrollBlock>
        )}
      </div>
      {onClose && (
        <button
          type="button"
          aria-label="Dismiss"
          onClick={onClose}
          className="-m-1 rounded-md p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
        >
          <CrossIcon strokeWidth="1.5" />
        </button>
      )}
    </div>,
    document.body,
  )
}

/** Under the navbar and the Preview and Code tabs when the toolbar is not shown (a phone's chat). */
const defaultTopPx = 160

/**
 * The top of the notice: under the preview's toolbar, whose buttons flow onto more rows in a
 * narrow pane (docs/product/builder.md "Preview pane"), so the notice never covers one of them.
 */
function useBelowPreviewToolbar(): number {
  const [top, setTop] = useState(defaultTopPx)
  useLayoutEffect(() => {
    const place = () => {
      const toolbar = document.querySelector('[role="toolbar"][aria-label="Preview tools"]')
      const bottom = toolbar?.getBoundingClientRect().bottom ?? 0
      setTop(bottom > 0 ? Math.max(defaultTopPx, Math.round(bottom) + 8) : defaultTopPx)
    }
    place()
    window.addEventListener('resize', place)
    return () => window.removeEventListener('resize', place)
  }, [])
  return top
}
