import {
  type ErrorGroup,
  type ErrorGroupStatus,
  errorGroupStatuses,
} from '@sprout/protocol/api/error-monitoring.ts'
import { useState } from 'react'
import { PageContainer } from '../../components/layout/page-container.tsx'
import { PageHeader } from '../../components/layout/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { EmptyState } from '../../components/ui/empty-state.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { classNames } from '../../lib/class-names.ts'
import { ErrorDetailDialog } from './error-detail-dialog.tsx'
import { ErrorGroupCard } from './error-group-card.tsx'
import { errorStatusLabel } from './error-status-badge.tsx'
import { useErrorGroups } from './use-error-groups.ts'

export type ErrorsPageProps = {
  /** The organization's applications, for the filter. */
  applications: { id: string; name: string }[]
  /** The chosen tab and application: the route keeps them in the address. */
  status: ErrorGroupStatus
  applicationId: string | undefined
  onFilterChange: (filter: { status: ErrorGroupStatus; applicationId: string | undefined }) => void
}

/**
 * docs/product/error-monitoring.md "Errors page": the organization's error groups by status,
 * optionally for one application, polled every 30 s.
 */
export function ErrorsPage({
  applications,
  status,
  applicationId,
  onFilterChange,
}: ErrorsPageProps) {
  const setStatus = (next: ErrorGroupStatus) => onFilterChange({ status: next, applicationId })
  const setApplicationId = (next: string | undefined) =>
    onFilterChange({ status, applicationId: next })
  // The opened group stays open after its status change moves it to another tab.
  const [opened, setOpened] = useState<ErrorGroup | undefined>()
  const groups = useErrorGroups(status, applicationId)
  const list: ErrorGroup[] = groups.data?.pages.flatMap((page) => page.groups) ?? []
  // Re-rendered by each poll, so the relative times stay fresh enough.
  const now = new Date()
  return (
    <PageContainer>
      <PageHeader
        title="Error Monitoring"
        subtitle="Errors from your applications' browsers and servers, grouped."
        actions={
          <select
            aria-label="Application"
            value={applicationId ?? ''}
            onChange={(event) => setApplicationId(event.target.value || undefined)}
            className="h-8 rounded-lg border border-zinc-200 bg-white px-2 text-sm text-zinc-800 shadow-sm"
          >
            <option value="">All applications</option>
            {applications.map((application) => (
              <option key={application.id} value={application.id}>
                {application.name}
              </option>
            ))}
          </select>
        }
      />
      <div role="tablist" aria-label="Status" className="mb-6 flex gap-1 border-b border-zinc-200">
        {errorGroupStatuses.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={tab === status}
            onClick={() => setStatus(tab)}
            className={classNames(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
              tab === status
                ? 'border-zinc-900 text-zinc-900'
                : 'border-transparent text-zinc-500 hover:text-zinc-800',
            )}
          >
            {errorStatusLabel(tab)}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={errorStatusLabel(status)}>
        {groups.isPending ? (
          <CenteredSpinner label="Loading errors..." />
        ) : groups.isError && list.length === 0 ? (
          <div
            role="alert"
            className="flex flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50 px-6 py-10 text-center"
          >
            <p className="text-sm font-medium text-red-700">Failed to load errors</p>
            <Button variant="secondary" size="sm" onClick={() => void groups.refetch()}>
              Retry
            </Button>
          </div>
        ) : list.length === 0 ? (
          <EmptyState
            title={`No ${status} errors`}
            description="Your application is running smoothly"
          />
        ) : (
          <>
            <ul aria-label="Error groups" className="flex flex-col gap-3">
              {list.map((group) => (
                <ErrorGroupCard
                  key={group.id}
                  group={group}
                  now={now}
                  onOpen={() => setOpened(group)}
                />
              ))}
            </ul>
            {groups.hasNextPage && (
              <div className="mt-4 flex justify-center">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={groups.isFetchingNextPage}
                  onClick={() => void groups.fetchNextPage()}
                >
                  Load More
                </Button>
              </div>
            )}
          </>
        )}
      </div>
      <ErrorDetailDialog
        group={list.find((group) => group.id === opened?.id) ?? opened}
        now={now}
        onClose={() => setOpened(undefined)}
      />
    </PageContainer>
  )
}
