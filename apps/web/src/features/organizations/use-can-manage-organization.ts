import { useQuery } from '@tanstack/react-query'
import { sessionQueryOptions } from '../../lib/session-query.ts'
import { organizationMembersQueryOptions } from './organization-member-queries.ts'
import type { ResolvedOrganization } from './organization-types.ts'
import { canInvite } from './role-label.ts'

/** The signed-in user is an owner or admin of `organization` (always, in a personal one). */
export function useCanManageOrganization(organization: ResolvedOrganization): boolean {
  const session = useQuery(sessionQueryOptions)
  const members = useQuery({
    ...organizationMembersQueryOptions(organization.externalOrganizationId),
    enabled: !organization.isPersonal,
  })
  if (organization.isPersonal) return true
  const userId = session.data?.user.id
  return canInvite(members.data?.find((member) => member.userId === userId)?.role)
}
