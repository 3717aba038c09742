import type { ErrorGroup, ErrorGroupStatus } from '@sprout/protocol/api/error-monitoring.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { ScrollBlock } from '../../components/ui/scroll-block.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { ErrorStatusBadge } from './error-status-badge.tsx'
import { occurrenceCount } from './occurrence-count.ts'
import { OccurrenceItem } from './occurrence-item.tsx'
import { useErrorDetail } from './use-error-detail.ts'

/** The button to each status; the one of the current status is disabled. */
const statusButtons: { status: ErrorGroupStatus; label: string }[] = [
  { status: 'resolved', label: 'Mark as Resolved' },
  { status: 'ignored', label: 'Ignore' },
  { status: 'active', label: 'Reopen' },
]

/**
 * docs/product/error-monitoring.md "Errors page": a group's status and message, the status
 * buttons, its stack trace and its 10 newest occurrences.
 */
export function ErrorDetailDialog({
  group,
  now,
  onClose,
}: {
  group: ErrorGroup | undefined
  now: Date
  onClose: () => void
}) {
  const { occurrences, setStatus } = useErrorDetail(group?.id)
  // The list refreshes after a change; until then the answer of the change is the status.
  const status =
    setStatus.data?.id === group?.id ? (setStatus.data?.status ?? group?.status) : group?.status
  return (
    <Dialog
      open={group !== undefined}
      title={group?.error_type ?? ''}
      size="lg"
      onClose={onClose}
      footer={[
        <Button key="close" variant="ghost" size="sm" onClick={onClose}>
          Close
        </Button>,
        ...statusButtons.map((button) => (
          <Button
            key={button.status}
            variant={button.status === 'resolved' ? 'primary' : 'secondary'}
            size="sm"
            disabled={status === button.status || setStatus.isPending}
            onClick={() => setStatus.mutate(button.status)}
          >
            {button.label}
          </Button>
        )),
      ]}
    >
      {group && status && (
        <div className="flex max-h-[60vh] flex-col gap-4 overflow-y-auto pb-1">
          <div className="flex flex-col gap-1.5">
            <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-500">
              <ErrorStatusBadge status={status} />
              <span>{group.application_name}</span>
              <span>{occurrenceCount(group.occurrence_count)}</span>
              {group.last_url && <span className="truncate">{group.last_url}</span>}
            </p>
            <p className="text-sm break-words text-zinc-800">{group.representative_message}</p>
          </div>
          {setStatus.isError && <Alert>{setStatus.error.message}</Alert>}
          <section aria-label="Stack trace">
            <h3 className="mb-1 text-xs font-medium text-zinc-600">Stack trace</h3>
            <ScrollBlock
              label="Stack trace"
              className="max-h-56 overflow-auto rounded-lg bg-zinc-950 px-3 py-2 font-mono text-[11px] leading-relaxed whitespace-pre text-zinc-100"
            >
              {group.representative_stack.join('\n') || '(no stack)'}
            </ScrollBlock>
          </section>
          <section aria-label="Recent occurrences">
            <h3 className="mb-1 text-xs font-medium text-zinc-600">Recent occurrences</h3>
            {occurrences.isPending ? (
              <Spinner className="size-4" />
            ) : occurrences.isError ? (
              <Alert>{occurrences.error.message}</Alert>
            ) : (
              <ul className="flex flex-col gap-1.5">
                {occurrences.data.map((occurrence) => (
                  <OccurrenceItem key={occurrence.id} occurrence={occurrence} now={now} />
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </Dialog>
  )
}
