import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { EmptyState } from '../../components/ui/empty-state.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { MailFailuresTable } from './mail-failures-table.tsx'
import { MailNotConfigured } from './mail-not-configured.tsx'
import { useMailOverview } from './use-mail-overview.ts'
import { useRetryMail } from './use-retry-mail.ts'

/** docs/product/mail.md "What the admin sees": the Mail tab of the admin panel. */
export function MailPanel() {
  const overview = useMailOverview()
  const retry = useRetryMail()
  const [retrying, setRetrying] = useState<string | undefined>()

  const retryMail = (id: string) => {
    setRetrying(id)
    retry.mutate(id, {
      onError: (error) => window.alert(`Failed to retry: ${error.message}`),
      onSettled: () => setRetrying(undefined),
    })
  }

  return (
    <section aria-labelledby="mail-heading">
      <div className="mb-4">
        <h2 id="mail-heading" className="text-lg font-semibold text-zinc-900">
          Mail
        </h2>
        <p className="text-sm text-zinc-500">
          The messages Sprout sends: password resets, address confirmations, invitations.
        </p>
      </div>
      {overview.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-6" />
        </div>
      ) : overview.isError ? (
        <Alert>{overview.error.message}</Alert>
      ) : !overview.data.configured ? (
        <MailNotConfigured />
      ) : (
        <div className="flex flex-col gap-6">
          <div className="flex flex-wrap gap-4">
            <p className="flex-1 rounded-2xl border border-zinc-200 bg-white p-4 text-sm text-zinc-600 shadow-sm">
              Sent from <span className="font-medium text-zinc-900">{overview.data.from}</span>
            </p>
            <dl className="rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm">
              <dt className="text-sm text-zinc-500">Waiting to be sent</dt>
              <dd
                data-testid="mail-pending"
                className="mt-1 text-3xl font-semibold tracking-tight text-zinc-900 tabular-nums"
              >
                {overview.data.pending}
              </dd>
            </dl>
          </div>
          <div>
            <h3 className="mb-2 text-base font-semibold text-zinc-900">Delivery problems</h3>
            {overview.data.failures.length === 0 ? (
              <EmptyState
                title="No delivery problems"
                description="Every message so far reached the mail server."
              />
            ) : (
              <MailFailuresTable
                failures={overview.data.failures}
                retrying={retrying}
                onRetry={retryMail}
              />
            )}
          </div>
        </div>
      )}
    </section>
  )
}
