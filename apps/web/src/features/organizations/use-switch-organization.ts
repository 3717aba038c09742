import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { sessionQueryOptions } from '../../lib/session-query.ts'
import { activateOrganization, type OrganizationTarget } from './activate-organization.ts'

export type { OrganizationTarget } from './activate-organization.ts'

type SwitchInput = { target: OrganizationTarget; redirectTo?: string }

/**
 * Switches to `target` (docs/product/organizations.md): the previous organization's cache is
 * dropped, then the user lands on `redirectTo` or `/`.
 */
export function useSwitchOrganization() {
  const queryClient = useQueryClient()
  const router = useRouter()
  return useMutation({
    mutationFn: async ({ target, redirectTo }: SwitchInput) => {
      const session = await queryClient.ensureQueryData(sessionQueryOptions)
      if (!session) throw new Error('Authentication required')
      await activateOrganization(session.user.id, target)
      await queryClient.resetQueries()
      // Away first: re-running the current route would read an app's builder as a link to its
      // organization and switch straight back to it (docs/product/organizations.md "Organization context").
      await router.navigate({ href: redirectTo ?? '/' })
      await router.invalidate()
    },
  })
}
