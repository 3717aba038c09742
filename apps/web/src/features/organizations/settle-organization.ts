import type { QueryClient } from '@tanstack/react-query'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'
import { forgetUserData, type Session, sessionQueryOptions } from '../../lib/session-query.ts'
import { activateOrganization } from './activate-organization.ts'
import { organizationListQueryOptions } from './organization-queries.ts'
import { readOrganizationSelection } from './organization-selection.ts'
import { setSelectedPersonal } from './personal-mode.ts'

/** What an address names that belongs to one organization: the builder's app, an exploration. */
export type LinkedItem = { kind: 'application' | 'exploration'; id: string }

const linkedRoutes: Record<string, LinkedItem['kind']> = {
  '/_authenticated/_organization/applications/$id/edit': 'application',
  '/_authenticated/_organization/explore/$id': 'exploration',
}

/** The item the matched routes name, if any. */
export function linkedItemOf(
  matches: readonly { routeId: string; params: object }[],
): LinkedItem | undefined {
  for (const match of matches) {
    const kind = linkedRoutes[match.routeId]
    const id = 'id' in match.params ? match.params.id : undefined
    if (kind && typeof id === 'string') return { kind, id }
  }
  return undefined
}

/** The organization that owns `item`, or null when the user is not a member of it (404). */
function owningOrganizationQueryOptions(item: LinkedItem) {
  return queryOptions({
    queryKey: ['owning-organization', item.kind, item.id],
    queryFn: () =>
      apiRequest<{ id: string; isPersonal: boolean }>(
        `/api/organizations?${item.kind}_id=${encodeURIComponent(item.id)}`,
        { organizationId: null },
      ).catch(() => null),
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/**
 * Settles where a screen that needs an organization works (docs/product/organizations.md
 * "Organization context"): a link to an app or exploration opens in the organization that owns
 * it, switching to it; a user with a single organization is never asked. Answers the session to
 * go on with, or undefined when the user has to choose on /organizations.
 */
export async function settleOrganization(
  queryClient: QueryClient,
  session: Session,
  linked: LinkedItem | undefined,
): Promise<Session | undefined> {
  const userId = session.user.id
  const selection = readOrganizationSelection(session)
  const owner = linked ? await queryClient.fetchQuery(owningOrganizationQueryOptions(linked)) : null
  if (owner) {
    const isCurrent =
      selection.kind === 'organization'
        ? selection.externalOrganizationId === owner.id
        : selection.kind === 'personal' && owner.isPersonal
    if (isCurrent) return session
    await activateOrganization(
      userId,
      owner.isPersonal ? { kind: 'personal' } : { kind: 'organization', id: owner.id },
    )
    forgetUserData(queryClient)
    const switched = await queryClient.fetchQuery({ ...sessionQueryOptions, staleTime: 0 })
    return switched ?? undefined
  }
  if (selection.kind !== 'unselected') return session
  const organizations = await queryClient.fetchQuery(organizationListQueryOptions(userId))
  if (organizations.length > 1) return undefined
  setSelectedPersonal(userId, true)
  return session
}
