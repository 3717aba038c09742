import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { EmptyState } from '../../components/ui/empty-state.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts'
import type { AuditSource } from './audit-api.ts'
import { AuditEventsTable } from './audit-events-table.tsx'
import { AuditExportLink } from './audit-export-link.tsx'
import { AuditFilterBar } from './audit-filter-bar.tsx'
import { type AuditFilters, auditQueryOf, noAuditFilters } from './audit-filters.ts'
import { useAuditEvents } from './use-audit-events.ts'

const typingDelayMs = 300

const failedWritesText = (count: number) =>
  `${count} audit ${count === 1 ? 'event' : 'events'} could not be written since this server started; see the server log.`

/**
 * The audit log with its filters, 'Load more' and export (docs/product/audit.md "Who sees it"):
 * a platform admin's of every organization, or one organization's for its owners and admins.
 */
export function AuditLogView({ source }: { source: AuditSource }) {
  const [filters, setFilters] = useState<AuditFilters>(noAuditFilters)
  // Typed fields ask once typing pauses; the select and dates at once.
  const actor = useDebouncedValue(filters.actor, typingDelayMs)
  const organization = useDebouncedValue(filters.organization, typingDelayMs)
  const query = auditQueryOf({
    ...filters,
    actor,
    organization: source.kind === 'admin' ? organization : '',
  })
  const events = useAuditEvents(source, query)
  const pages = events.data?.pages ?? []
  const list = pages.flatMap((page) => page.events)
  const failedWrites = pages.at(-1)?.failed_writes ?? 0

  return (
    <div className="flex flex-col gap-4">
      <AuditFilterBar
        filters={filters}
        showOrganization={source.kind === 'admin'}
        onChange={setFilters}
        actions={<AuditExportLink source={source} query={query} />}
      />
      {failedWrites > 0 && (
        <p
          role="status"
          className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-800"
        >
          {failedWritesText(failedWrites)}
        </p>
      )}
      {events.isPending ? (
        <div role="status" className="flex items-center justify-center gap-3 py-16">
          <Spinner />
          <span className="text-sm text-zinc-500">Loading events...</span>
        </div>
      ) : events.isError && list.length === 0 ? (
        <Alert>{events.error.message}</Alert>
      ) : list.length === 0 ? (
        <EmptyState title="No events" description="No events match these filters." />
      ) : (
        <div aria-busy={events.isFetching} className="flex flex-col gap-4">
          <AuditEventsTable events={list} showOrganization={source.kind === 'admin'} />
          {events.isError && <Alert>{events.error.message}</Alert>}
          {events.hasNextPage && (
            <div className="flex justify-center">
              <Button
                variant="secondary"
                size="sm"
                disabled={events.isFetchingNextPage}
                onClick={() => void events.fetchNextPage()}
              >
                {events.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            </div>
          )}
        </div>
      )}
    </div>
  )
}
