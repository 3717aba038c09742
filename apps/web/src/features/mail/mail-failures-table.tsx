import type { MailFailure } from '@sprout/protocol/api/mail.ts'
import { Button } from '../../components/ui/button.tsx'
import { classNames } from '../../lib/class-names.ts'

const columns = ['Recipient', 'Subject', 'Status', 'Attempts', 'Last error', 'Last attempt']

const formatTime = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—'

/** docs/product/mail.md "What the admin sees": the messages the mail server has not taken. */
export function MailFailuresTable({
  failures,
  retrying,
  onRetry,
}: {
  failures: MailFailure[]
  /** The id whose Retry is in flight. */
  retrying: string | undefined
  onRetry: (id: string) => void
}) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-zinc-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-100 bg-zinc-50/60 text-xs text-zinc-500">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-4 py-2.5 font-medium">
                {column}
              </th>
            ))}
            <th scope="col" className="px-4 py-2.5">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {failures.map((failure) => (
            <tr key={failure.id} aria-label={`${failure.subject} to ${failure.recipient}`}>
              <td className="px-4 py-3 text-zinc-800">{failure.recipient}</td>
              <td className="px-4 py-3 text-zinc-800">{failure.subject}</td>
              <td
                className={classNames(
                  'px-4 py-3 font-medium',
                  failure.status === 'failed' ? 'text-red-600' : 'text-amber-700',
                )}
              >
                {failure.status === 'failed' ? 'Failed' : 'Retrying'}
              </td>
              <td className="px-4 py-3 tabular-nums">{failure.attempts}</td>
              <td className="max-w-sm px-4 py-3 font-mono text-xs break-words text-zinc-600">
                {failure.lastError}
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-zinc-500">
                {formatTime(failure.lastAttemptAt)}
              </td>
              <td className="px-4 py-3 text-right">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={retrying !== undefined}
                  onClick={() => onRetry(failure.id)}
                >
                  {retrying === failure.id ? 'Retrying...' : 'Retry'}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
