import { queryOptions } from '@tanstack/react-query'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'

export type OrganizationMember = {
  id: string
  userId: string
  role: string
  user: { name: string; email: string }
}

export type OrganizationInvitation = {
  id: string
  email: string
  role: string
  status: string
  expiresAt: Date | string
}

export function organizationMembersQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: ['organization-members', organizationId],
    queryFn: async () => {
      const result = await unwrapAuthResult(
        authClient.organization.listMembers({ query: { organizationId } }),
      )
      return (result?.members ?? []) as OrganizationMember[]
    },
  })
}

export function organizationInvitationsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: ['organization-invitations', organizationId],
    queryFn: async () => {
      const invitations = await unwrapAuthResult(
        authClient.organization.listInvitations({ query: { organizationId } }),
      )
      return ((invitations ?? []) as OrganizationInvitation[]).filter(
        (invitation) => invitation.status === 'pending',
      )
    },
  })
}
