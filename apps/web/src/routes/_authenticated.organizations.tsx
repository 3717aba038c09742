import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { safeRedirectTarget } from '../features/auth/redirect-target.ts'
import { OrganizationsPage } from '../features/organizations/organizations-page.tsx'
import { sessionQueryOptions } from '../lib/session-query.ts'

type OrganizationsSearch = { manage?: string; redirect?: string }

export const Route = createFileRoute('/_authenticated/organizations')({
  validateSearch: (search: Record<string, unknown>): OrganizationsSearch => ({
    manage: typeof search.manage === 'string' ? search.manage : undefined,
    redirect: safeRedirectTarget(search.redirect),
  }),
  component: OrganizationsRoute,
})

function OrganizationsRoute() {
  const { manage, redirect } = Route.useSearch()
  const navigate = Route.useNavigate()
  const { session: initialSession } = Route.useRouteContext()
  const session = useQuery(sessionQueryOptions).data ?? initialSession
  return (
    <OrganizationsPage
      user={session.user}
      managedOrganizationId={manage}
      redirectTo={redirect}
      onManage={(organizationId) =>
        void navigate({
          search: (previous) => ({ ...previous, manage: organizationId }),
          replace: true,
        })
      }
    />
  )
}
