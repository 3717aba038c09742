import type { ErrorGroup } from '@sprout/protocol/api/error-monitoring.ts'
import { COMPACT_ERROR_LIST_SHOWN } from '@sprout/protocol/constants.ts'
import { formatErrorFixRequest } from '@sprout/protocol/text/error-fix-request.ts'
import { formatRelativeTime } from '@sprout/protocol/text/relative-time.ts'
import { type ReactNode, useEffect, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { ScrollBlock } from '../../components/ui/scroll-block.tsx'
import { classNames } from '../../lib/class-names.ts'
import { occurrenceCount } from './occurrence-count.ts'
import { useApplicationErrors } from './use-application-errors.ts'

export type BuilderErrorListProps = {
  applicationId: string
  /** Sends the agent a message in the open conversation. */
  onAskAgent: (message: string) => void
  /** The preview's origin: its reporter says when it sends an error (browser-reporter.ts). */
  previewOrigin?: string
  /** The list was opened (an error's details, or all errors) or closed: the pane widens. */
  onExpandedChange?: (expanded: boolean) => void
}

/** What the preview's error reporter posts to the builder when it sends an error. */
const REPORTED_MESSAGE = 'sprout-reporter:error'

/** Listens for the preview's reporter: an error is on its way to the list. */
function usePreviewReports(previewOrigin: string | undefined, onReport: () => void) {
  useEffect(() => {
    if (!previewOrigin) return
    const listen = (event: MessageEvent) => {
      if (event.origin === previewOrigin && event.data === REPORTED_MESSAGE) onReport()
    }
    window.addEventListener('message', listen)
    return () => window.removeEventListener('message', listen)
  }, [previewOrigin, onReport])
}

/**
 * docs/product/error-monitoring.md "Builder error list": under the preview, the application's
 * newest active errors; a click expands the panel with their details and the buttons that ask the
 * agent to fix them.
 */
export function BuilderErrorList({
  applicationId,
  onAskAgent,
  previewOrigin,
  onExpandedChange,
}: BuilderErrorListProps) {
  const errors = useApplicationErrors(applicationId)
  const { list, groups, activeCount } = errors
  const [selectedId, setSelectedId] = useState<string | undefined>()
  const [showAll, setShowAll] = useState(false)
  usePreviewReports(previewOrigin, errors.arrive)
  const selected = groups.find((group) => group.id === selectedId)
  const expanded = selected !== undefined || showAll
  useEffect(() => onExpandedChange?.(expanded), [expanded, onExpandedChange])
  const now = new Date()
  const more = list.hasNextPage ? (
    <Button
      variant="ghost"
      size="sm"
      disabled={list.isFetchingNextPage}
      onClick={() => void list.fetchNextPage()}
    >
      {list.isFetchingNextPage ? 'Loading…' : 'Show more'}
    </Button>
  ) : null

  let body: ReactNode
  if (list.isPending) {
    body = <p className="text-zinc-500">Loading…</p>
  } else if (list.isError && groups.length === 0) {
    body = <p className="text-red-600">Error loading</p>
  } else if (groups.length === 0) {
    body = <p className="text-emerald-700">All clear!</p>
  } else if (selected) {
    body = (
      <ExpandedErrors
        groups={groups}
        selected={selected}
        now={now}
        onSelect={setSelectedId}
        onAskAgent={onAskAgent}
        more={more}
      />
    )
  } else {
    const shown = showAll ? groups : groups.slice(0, COMPACT_ERROR_LIST_SHOWN)
    const hidden = activeCount - shown.length
    body = (
      <ul className="flex flex-col gap-1">
        {shown.map((group) => (
          <li key={group.id}>
            <CompactError group={group} now={now} onSelect={setSelectedId} />
          </li>
        ))}
        {!showAll && hidden > 0 && (
          <li>
            <button
              type="button"
              onClick={() => setShowAll(true)}
              className="px-1.5 text-zinc-500 underline-offset-2 hover:text-zinc-800 hover:underline"
            >
              +{hidden} more
            </button>
          </li>
        )}
        {showAll && more && <li>{more}</li>}
      </ul>
    )
  }

  return (
    <section
      aria-label="Errors"
      data-expanded={expanded}
      className={classNames(
        'flex flex-col gap-1.5 rounded-lg border bg-white px-3 py-2.5 text-xs',
        groups.length > 0 ? 'border-red-200' : 'border-zinc-200',
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-medium text-zinc-700">
          {groups.length > 0 ? `Errors (${activeCount})` : 'No Errors'}
        </h2>
        {expanded && (
          <button
            type="button"
            onClick={() => {
              setSelectedId(undefined)
              setShowAll(false)
            }}
            className="text-zinc-500 hover:text-zinc-800"
          >
            Collapse
          </button>
        )}
      </div>
      {errors.arriving && (
        <p role="status" className="text-zinc-500">
          New error arriving…
        </p>
      )}
      {body}
    </section>
  )
}

function CompactError({
  group,
  now,
  onSelect,
}: {
  group: ErrorGroup
  now: Date
  onSelect: (id: string) => void
}) {
  // Named by all it shows (axe's label-content-name-mismatch): the error, then its count and age.
  return (
    <button
      type="button"
      onClick={() => onSelect(group.id)}
      className="flex w-full min-w-0 flex-col rounded-md px-1.5 py-1 text-left hover:bg-red-50"
    >
      <span className="truncate font-medium text-red-700">
        {group.error_type}: {group.representative_message}
      </span>
      <span className="text-zinc-500">
        {occurrenceCount(group.occurrence_count)} · {formatRelativeTime(group.last_seen_at, now)}
      </span>
    </button>
  )
}

function ExpandedErrors({
  groups,
  selected,
  now,
  onSelect,
  onAskAgent,
  more,
}: {
  groups: ErrorGroup[]
  selected: ErrorGroup
  now: Date
  onSelect: (id: string) => void
  onAskAgent: (message: string) => void
  more: ReactNode
}) {
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-col gap-1">
        {groups.map((group) => (
          <li key={group.id}>
            <button
              type="button"
              aria-pressed={group.id === selected.id}
              onClick={() => onSelect(group.id)}
              className={classNames(
                'w-full truncate rounded-md px-1.5 py-1 text-left',
                group.id === selected.id
                  ? 'bg-red-50 text-red-800'
                  : 'text-red-700 hover:bg-red-50',
              )}
            >
              {group.error_type}: {group.representative_message}
            </button>
          </li>
        ))}
        {more && <li>{more}</li>}
      </ul>
      <div
        data-testid="error-details"
        className="flex flex-col gap-1.5 border-t border-zinc-100 pt-2"
      >
        <p className="font-medium break-words text-zinc-800">
          {selected.error_type}: {selected.representative_message}
        </p>
        <p className="text-zinc-500">
          {occurrenceCount(selected.occurrence_count)} · last seen{' '}
          {formatRelativeTime(selected.last_seen_at, now)} · {selected.source}
        </p>
        {selected.last_url && <p className="truncate text-zinc-500">{selected.last_url}</p>}
        {selected.representative_stack.length > 0 && (
          <ScrollBlock
            label="Stack trace"
            className="max-h-60 overflow-auto rounded-md bg-zinc-950 px-2 py-1.5 font-mono text-[11px] leading-relaxed whitespace-pre-wrap break-all text-zinc-100"
          >
            {selected.representative_stack.join('\n')}
          </ScrollBlock>
        )}
        <Button size="sm" onClick={() => onAskAgent(formatErrorFixRequest([selected]))}>
          Ask agent to fix this error
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => onAskAgent(formatErrorFixRequest(groups))}
        >
          Ask agent to fix
        </Button>
      </div>
    </div>
  )
}
