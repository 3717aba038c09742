import type { ErrorGroupStatus } from '@sprout/protocol/api/error-monitoring.ts'
import { classNames } from '../../lib/class-names.ts'

const labels: Record<ErrorGroupStatus, string> = {
  active: 'Active',
  resolved: 'Resolved',
  ignored: 'Ignored',
}

const tones: Record<ErrorGroupStatus, string> = {
  active: 'bg-red-50 text-red-700 ring-red-200',
  resolved: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  ignored: 'bg-zinc-100 text-zinc-600 ring-zinc-200',
}

export function ErrorStatusBadge({ status }: { status: ErrorGroupStatus }) {
  return (
    <span
      data-status={status}
      className={classNames(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        tones[status],
      )}
    >
      {labels[status]}
    </span>
  )
}

export const errorStatusLabel = (status: ErrorGroupStatus) => labels[status]
