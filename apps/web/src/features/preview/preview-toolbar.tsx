import type { ReactNode } from 'react'
import { iconButtonClasses } from '../../components/ui/icon-button.tsx'
import {
  ExternalLinkIcon,
  GlobeIcon,
  RefreshIcon,
  SelectElementIcon,
} from '../../components/ui/icons.tsx'
import { classNames } from '../../lib/class-names.ts'
import { devboxHandOffPath } from '../../lib/devbox-hand-off.ts'

const statusLabels = {
  ready: 'Preview running',
  starting: 'Preview starting',
  failed: 'Preview failed',
} as const

type PreviewToolbarProps = {
  previewUrl?: string
  prodUrl?: string
  status: keyof typeof statusLabels
  canRefresh: boolean
  onRefresh: () => void
  /** After refresh and open: the 'Vault Secrets' button, then the admin's deploy button. */
  actions?: ReactNode
  /** The 'Select' toggle (docs/product/builder.md "Select mode"); absent where nothing takes a selection. */
  select?: { on: boolean; disabled: boolean; onToggle: () => void }
}

export function PreviewToolbar({
  previewUrl,
  prodUrl,
  status,
  canRefresh,
  onRefresh,
  actions,
  select,
}: PreviewToolbarProps) {
  return (
    <div
      role="toolbar"
      aria-label="Preview tools"
      // The pane is 250 px wide: the actions wrap onto a second row rather than run out of it.
      className="flex min-h-12 shrink-0 flex-wrap items-center justify-end gap-0.5 whitespace-nowrap border-b border-zinc-200 bg-white px-2 py-1.5"
    >
      <div className="mr-auto flex items-center">
        <span
          role="img"
          aria-label={statusLabels[status]}
          title={statusLabels[status]}
          className={classNames(
            'mx-1.5 size-2 shrink-0 rounded-full',
            status === 'ready' && 'bg-accent-500',
            status === 'starting' && 'motion-safe:animate-pulse bg-amber-400',
            status === 'failed' && 'bg-red-500',
          )}
        />
        {prodUrl && (
          <a
            href={prodUrl}
            target="_blank"
            rel="noopener noreferrer"
            title={prodUrl}
            className="inline-flex h-7 items-center gap-1 rounded-lg bg-accent-50 px-2 text-xs font-medium text-accent-700 transition-colors hover:bg-accent-100"
          >
            <GlobeIcon className="size-3.5" />
            Live
          </a>
        )}
      </div>
      {select && (
        <button
          type="button"
          aria-pressed={select.on}
          title={select.on ? 'Stop selecting (Esc)' : 'Select an element to show the agent'}
          disabled={select.disabled}
          onClick={select.onToggle}
          className={classNames(
            'inline-flex h-8 shrink-0 items-center gap-1 rounded-lg px-2 text-xs font-medium transition-colors disabled:cursor-not-allowed disabled:text-zinc-300',
            select.on
              ? 'bg-accent-100 text-accent-800 hover:bg-accent-200'
              : 'text-zinc-600 hover:bg-zinc-200/70 hover:text-zinc-900 disabled:hover:bg-transparent',
          )}
        >
          <SelectElementIcon />
          Select
        </button>
      )}
      <button
        type="button"
        aria-label="Refresh preview"
        title="Refresh"
        disabled={!canRefresh}
        onClick={onRefresh}
        className={iconButtonClasses}
      >
        <RefreshIcon />
      </button>
      {previewUrl ? (
        <a
          href={devboxHandOffPath(previewUrl)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label="Open in new window"
          title="Open in new window"
          className={iconButtonClasses}
        >
          <ExternalLinkIcon />
        </a>
      ) : (
        <button
          type="button"
          aria-label="Open in new window"
          disabled
          className={iconButtonClasses}
        >
          <ExternalLinkIcon />
        </button>
      )}
      {actions}
    </div>
  )
}
