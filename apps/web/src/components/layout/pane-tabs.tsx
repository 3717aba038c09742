import type { KeyboardEvent, ReactNode } from 'react'
import { classNames } from '../../lib/class-names.ts'

export type PaneTab<Id extends string> = { id: Id; label: string }

type PaneTabsProps<Id extends string> = {
  label: string
  tabs: readonly PaneTab<Id>[]
  selected: Id
  onSelect: (id: Id) => void
}

/** The id of a pane's tab; its panel is labelled by it. */
export const paneTabId = (id: string) => `${id}-tab`
/** The id of a pane's panel; its tab controls it. */
export const panePanelId = (id: string) => `${id}-panel`

/**
 * Side-by-side panes shown one at a time on a narrow screen: a row of tabs of equal width. The
 * arrow keys, Home and End move between them (the WAI-ARIA tabs pattern).
 */
export function PaneTabs<Id extends string>({
  label,
  tabs,
  selected,
  onSelect,
}: PaneTabsProps<Id>) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected)
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    }
    const next = tabs[moves[event.key] ?? -1]
    if (!next) return
    event.preventDefault()
    onSelect(next.id)
    document.getElementById(paneTabId(next.id))?.focus()
  }
  return (
    <div
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className="flex shrink-0 border-b border-zinc-200 bg-white"
    >
      {tabs.map((tab) => (
        <button
          key={tab.id}
          id={paneTabId(tab.id)}
          type="button"
          role="tab"
          aria-selected={tab.id === selected}
          aria-controls={panePanelId(tab.id)}
          tabIndex={tab.id === selected ? 0 : -1}
          onClick={() => onSelect(tab.id)}
          className={classNames(
            '-mb-px flex-1 border-b-2 px-3 py-2.5 text-sm font-medium',
            tab.id === selected
              ? 'border-zinc-900 text-zinc-900'
              : 'border-transparent text-zinc-600 hover:text-zinc-900',
          )}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}

type PanePanelProps = {
  id: string
  /** Whether the panes are tabs now; side by side, the panel is a plain box. */
  tabbed: boolean
  selected: boolean
  className?: string
  children: ReactNode
}

/** One pane's box. Hidden with CSS, never unmounted, so a frame or a draft in it lives on. */
export function PanePanel({ id, tabbed, selected, className, children }: PanePanelProps) {
  if (!tabbed) return <div className={className}>{children}</div>
  return (
    <div
      role="tabpanel"
      id={panePanelId(id)}
      aria-labelledby={paneTabId(id)}
      className={classNames(className, !selected && 'hidden')}
    >
      {children}
    </div>
  )
}
