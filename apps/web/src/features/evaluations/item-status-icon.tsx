import type { EvaluationItemStatus } from '@sprout/protocol/api/evaluations.ts'
import { CheckIcon, CircleIcon, CrossIcon } from '../../components/ui/icons.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'

const labels: Record<EvaluationItemStatus, string> = {
  pending: 'Pending',
  in_progress: 'Running',
  complete: 'Complete',
  failed: 'Failed',
}

/** An evaluation item's status as an icon, named for screen readers. */
export function ItemStatusIcon({ status }: { status: EvaluationItemStatus }) {
  return (
    <span role="img" aria-label={labels[status]} title={labels[status]} className="flex size-5">
      {status === 'complete' ? (
        <CheckIcon className="size-5 text-accent-600" />
      ) : status === 'failed' ? (
        <CrossIcon className="size-5 text-red-600" />
      ) : status === 'in_progress' ? (
        <Spinner className="size-4" />
      ) : (
        <CircleIcon className="size-5 text-zinc-300" />
      )}
    </span>
  )
}
