import { type ReactNode, useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import { classNames } from '../../lib/class-names.ts'

type DialogProps = {
  open: boolean
  title: string
  description?: ReactNode
  /** Escape, the backdrop and the close button call it; leave it out while the dialog is busy. */
  onClose?: () => void
  children?: ReactNode
  footer?: ReactNode
  /** `fit`: as wide as its content, up to the window (an image). */
  size?: 'sm' | 'md' | 'lg' | 'fit'
}

const sizeClasses = {
  sm: 'sm:max-w-md',
  md: 'sm:max-w-lg',
  lg: 'sm:max-w-xl',
  fit: 'sm:w-auto sm:max-w-[calc(100vw-2rem)]',
}

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** A modal dialog: focus moves in and stays in, Escape and the backdrop close it. */
export function Dialog({
  open,
  title,
  description,
  onClose,
  children,
  footer,
  size = 'md',
}: DialogProps) {
  const titleId = useId()
  const descriptionId = useId()
  const panelRef = useRef<HTMLDivElement>(null)
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose

  useEffect(() => {
    if (!open) return
    const previouslyFocused = document.activeElement as HTMLElement | null
    const panel = panelRef.current
    const first =
      panel?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel?.querySelector<HTMLElement>(focusableSelector)
    ;(first ?? panel)?.focus()

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        // An open popup inside the dialog (the model selector's list) closes first, on its own.
        if (event.target instanceof Element && event.target.closest('[role="listbox"]')) return
        onCloseRef.current?.()
      } else if (event.key === 'Tab' && panel) {
        const focusable = Array.from(panel.querySelectorAll<HTMLElement>(focusableSelector))
        const firstItem = focusable[0]
        const lastItem = focusable[focusable.length - 1]
        if (!firstItem || !lastItem) return
        if (event.shiftKey && document.activeElement === firstItem) {
          event.preventDefault()
          lastItem.focus()
        } else if (!event.shiftKey && document.activeElement === lastItem) {
          event.preventDefault()
          firstItem.focus()
        }
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      previouslyFocused?.focus?.()
    }
  }, [open])

  if (!open) return null
  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center p-4 sm:items-center">
      <div
        aria-hidden="true"
        data-testid="dialog-backdrop"
        className="absolute inset-0 bg-zinc-950/40 backdrop-blur-[2px]"
        onClick={() => onCloseRef.current?.()}
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={classNames(
          'relative w-full rounded-2xl border border-zinc-200 bg-white shadow-2xl outline-none',
          sizeClasses[size],
        )}
      >
        <div className="px-6 pt-6">
          <h2 id={titleId} className="text-lg font-semibold tracking-tight text-zinc-900">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="mt-1.5 text-sm text-zinc-500">
              {description}
            </div>
          )}
        </div>
        {children && <div className="px-6 pt-5">{children}</div>}
        {footer && (
          <div className="mt-6 flex flex-col-reverse gap-2 rounded-b-2xl border-t border-zinc-100 bg-zinc-50/60 px-6 py-4 sm:flex-row sm:justify-end">
            {footer}
          </div>
        )}
        {!footer && <div className="pb-6" />}
      </div>
    </div>,
    document.body,
  )
}
