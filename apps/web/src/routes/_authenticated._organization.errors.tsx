import { type ErrorGroupStatus, errorGroupStatuses } from '@sprout/protocol/api/error-monitoring.ts'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useApplications } from '../features/applications/use-applications.ts'
import { ErrorsPage } from '../features/error-monitoring/errors-page.tsx'
import { useOrganization } from '../features/organizations/use-organization.ts'

/** The chosen tab and application, kept in the address: a reload or Back keeps them. */
type ErrorsSearch = { status?: ErrorGroupStatus; app?: string }

const isStatus = (value: unknown): value is ErrorGroupStatus =>
  typeof value === 'string' && (errorGroupStatuses as readonly string[]).includes(value)

export const Route = createFileRoute('/_authenticated/_organization/errors')({
  validateSearch: (search: Record<string, unknown>): ErrorsSearch => ({
    status: isStatus(search.status) && search.status !== 'active' ? search.status : undefined,
    app:
      typeof search.app === 'string' && search.app.length > 0
        ? search.app.slice(0, 100)
        : undefined,
  }),
  component: ErrorsRoute,
})

/** docs/product/error-monitoring.md "Errors page"; its filter lists the organization's apps. */
function ErrorsRoute() {
  const organization = useOrganization()
  const applications = useApplications(organization.organizationId)
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  return (
    <ErrorsPage
      applications={applications.data ?? []}
      status={search.status ?? 'active'}
      applicationId={search.app}
      onFilterChange={(filter) =>
        void navigate({
          search: {
            status: filter.status === 'active' ? undefined : filter.status,
            app: filter.applicationId,
          },
        })
      }
    />
  )
}
