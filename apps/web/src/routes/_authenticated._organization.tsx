import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Navigate, Outlet, redirect } from '@tanstack/react-router'
import { OrganizationContext } from '../features/organizations/organization-context.ts'
import { OrganizationLoadError } from '../features/organizations/organization-load-error.tsx'
import { resolvedOrganizationQueryOptions } from '../features/organizations/organization-queries.ts'
import {
  type OrganizationSelection,
  readOrganizationSelection,
} from '../features/organizations/organization-selection.ts'
import { SettingUpAccount } from '../features/organizations/setting-up-account.tsx'
import { linkedItemOf, settleOrganization } from '../features/organizations/settle-organization.ts'
import { useOrganizationSelection } from '../features/organizations/use-organization-selection.ts'
import { setCurrentOrganizationId } from '../lib/current-organization.ts'
import type { Session } from '../lib/session-query.ts'

type ChosenSelection = Exclude<OrganizationSelection, { kind: 'unselected' }>

/**
 * Routes that act inside an organization (docs/product/organizations.md "Needs an organization"). A
 * link to an app or exploration opens in its organization; a user with several organizations who
 * has not chosen one yet goes to /organizations; while it resolves, 'Setting up your account...'
 * shows.
 */
export const Route = createFileRoute('/_authenticated/_organization')({
  beforeLoad: async ({ context, location, matches, preload }): Promise<{ session: Session }> => {
    // Hovering a link preloads it: only following it may switch organizations.
    const session = preload
      ? context.session
      : await settleOrganization(context.queryClient, context.session, linkedItemOf(matches)).catch(
          () => undefined,
        )
    const selection = session ? readOrganizationSelection(session) : undefined
    if (!session || !selection || selection.kind === 'unselected') {
      throw redirect({
        to: '/organizations',
        search: { redirect: location.href === '/' ? undefined : location.href },
      })
    }
    // Resolving here lets loaders below already send the Organization-ID header.
    try {
      const organization = await context.queryClient.ensureQueryData(
        resolvedOrganizationQueryOptions(selection, session.user.id),
      )
      setCurrentOrganizationId(organization.organizationId)
    } catch {
      // The layout shows the error with a way to retry.
    }
    return { session }
  },
  pendingComponent: SettingUpAccount,
  pendingMs: 200,
  component: OrganizationLayout,
})

function OrganizationLayout() {
  const { session } = Route.useRouteContext()
  const selection = useOrganizationSelection()
  if (!selection) return null
  if (selection.kind === 'unselected') return <Navigate to="/organizations" />
  return <ResolvedOrganization selection={selection} userId={session.user.id} />
}

function ResolvedOrganization({
  selection,
  userId,
}: {
  selection: ChosenSelection
  userId: string
}) {
  const organization = useQuery(resolvedOrganizationQueryOptions(selection, userId))
  if (organization.isPending) return <SettingUpAccount />
  if (organization.isError) {
    return (
      <OrganizationLoadError
        message={organization.error.message}
        onRetry={() => void organization.refetch()}
      />
    )
  }
  // Set during render so that the screens' first requests already carry the header.
  setCurrentOrganizationId(organization.data.organizationId)
  return (
    <OrganizationContext value={organization.data}>
      <Outlet />
    </OrganizationContext>
  )
}
