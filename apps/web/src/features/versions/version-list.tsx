import type { Version } from '@sprout/protocol/api/versions.ts'
import { formatRelativeTime } from '@sprout/protocol/text/relative-time.ts'
import { useNow } from '../../hooks/use-now.ts'
import { filesChangedText, LineCounts, lineTotals } from './change-counts.tsx'
import { VersionKindBadge } from './version-kind-badge.tsx'

type VersionListProps = {
  versions: readonly Version[]
  onOpen: (version: Version) => void
}

/** docs/product/versions.md "History": newest first, each row opens the version's diff. */
export function VersionList({ versions, onOpen }: VersionListProps) {
  const now = useNow(60_000)
  return (
    <ul aria-label="Versions" className="flex flex-col divide-y divide-zinc-100">
      {versions.map((version) => (
        <li key={version.id}>
          <button
            type="button"
            data-testid="version-row"
            onClick={() => onOpen(version)}
            className="flex w-full flex-col gap-1 px-4 py-3 text-left hover:bg-zinc-50 focus-visible:bg-zinc-50 focus-visible:outline-none"
          >
            <span className="flex items-center gap-2">
              <span className="text-sm font-semibold text-zinc-900">Version {version.number}</span>
              <VersionKindBadge kind={version.kind} />
              <time
                dateTime={version.createdAt}
                title={new Date(version.createdAt).toLocaleString()}
                className="ml-auto text-xs text-zinc-500"
              >
                {formatRelativeTime(version.createdAt, now)}
              </time>
            </span>
            <span className="truncate text-sm text-zinc-700">{version.title}</span>
            <span className="flex items-center gap-2 text-xs text-zinc-500">
              {version.author && <span className="truncate">{version.author.name}</span>}
              <span>{filesChangedText(version.files.length)}</span>
              <LineCounts {...lineTotals(version.files)} />
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}
