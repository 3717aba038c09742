import { type Query, useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { setCurrentOrganizationId } from '../../lib/current-organization.ts'
import { sessionQueryOptions } from '../../lib/session-query.ts'
import { setSelectedPersonal } from './personal-mode.ts'

/** Leaves an organization; the user falls back to personal mode (docs/product/organizations.md). */
export function useLeaveOrganization() {
  const queryClient = useQueryClient()
  const router = useRouter()
  return useMutation({
    mutationFn: async (organizationId: string) => {
      const session = await queryClient.ensureQueryData(sessionQueryOptions)
      if (!session) throw new Error('Authentication required')
      await unwrapAuthResult(authClient.organization.leave({ organizationId }))
      setSelectedPersonal(session.user.id, true)
      if (session.session.activeOrganizationId === organizationId) {
        setCurrentOrganizationId(undefined)
      }
      // The organization's own lists would only answer 403 now; its panel closes on success.
      const ofOrganization = (query: Query) => query.queryKey.includes(organizationId)
      await queryClient.cancelQueries({ predicate: ofOrganization })
      await queryClient.resetQueries({ predicate: (query) => !ofOrganization(query) })
      await router.invalidate()
    },
  })
}
