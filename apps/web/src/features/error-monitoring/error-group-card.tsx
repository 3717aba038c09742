import type { ErrorGroup } from '@sprout/protocol/api/error-monitoring.ts'
import { formatRelativeTime } from '@sprout/protocol/text/relative-time.ts'
import { ErrorStatusBadge } from './error-status-badge.tsx'
import { occurrenceCount } from './occurrence-count.ts'

/**
 * One group on the Errors page; the whole card opens its details, named by all it shows (axe's
 * label-content-name-mismatch).
 */
export function ErrorGroupCard({
  group,
  now,
  onOpen,
}: {
  group: ErrorGroup
  now: Date
  onOpen: () => void
}) {
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        className="flex w-full flex-col gap-2 rounded-2xl border border-zinc-200 bg-white p-4 text-left shadow-sm transition hover:border-zinc-300 hover:shadow-md"
      >
        <div className="flex flex-wrap items-center gap-2">
          <ErrorStatusBadge status={group.status} />
          <span className="font-mono text-sm font-semibold text-zinc-900">{group.error_type}</span>
          <span className="text-xs text-zinc-500">{group.application_name}</span>
          <span className="ml-auto text-xs text-zinc-500">{group.source}</span>
        </div>
        <p className="line-clamp-2 text-sm break-words text-zinc-700">
          {group.representative_message}
        </p>
        <p className="flex flex-wrap gap-x-4 text-xs text-zinc-500">
          <span>{occurrenceCount(group.occurrence_count)}</span>
          <span>First seen {formatRelativeTime(group.first_seen_at, now)}</span>
          <span>Last seen {formatRelativeTime(group.last_seen_at, now)}</span>
        </p>
      </button>
    </li>
  )
}
