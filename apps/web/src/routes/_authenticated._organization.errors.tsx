import { createFileRoute } from '@tanstack/react-router'
import { useApplications } from '../features/applications/use-applications.ts'
import { ErrorsPage } from '../features/error-monitoring/errors-page.tsx'
import { useOrganization } from '../features/organizations/use-organization.ts'

export const Route = createFileRoute('/_authenticated/_organization/errors')({
  component: ErrorsRoute,
})

/** docs/product/error-monitoring.md "Errors page"; its filter lists the organization's apps. */
function ErrorsRoute() {
  const organization = useOrganization()
  const applications = useApplications(organization.organizationId)
  return <ErrorsPage applications={applications.data ?? []} />
}
