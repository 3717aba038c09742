import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { setCurrentOrganizationId } from '../../lib/current-organization.ts'
import { sessionQueryOptions } from '../../lib/session-query.ts'
import { setSelectedPersonal } from './personal-mode.ts'

export type OrganizationTarget = { kind: 'personal' } | { kind: 'organization'; id: string }

type SwitchInput = { target: OrganizationTarget; redirectTo?: string }

/**
 * Switches to `target` (docs/product/organizations.md): an organization becomes the session's
 * active one and clears the personal flag; personal does the reverse. The previous organization's
 * cache is dropped, then the user lands on `redirectTo` or `/`.
 */
export function useSwitchOrganization() {
  const queryClient = useQueryClient()
  const router = useRouter()
  return useMutation({
    mutationFn: async ({ target, redirectTo }: SwitchInput) => {
      const session = await queryClient.ensureQueryData(sessionQueryOptions)
      if (!session) throw new Error('Authentication required')
      await unwrapAuthResult(
        authClient.organization.setActive({
          organizationId: target.kind === 'personal' ? null : target.id,
        }),
      )
      setSelectedPersonal(session.user.id, target.kind === 'personal')
      setCurrentOrganizationId(undefined)
      await queryClient.resetQueries()
      await router.invalidate()
      await router.navigate({ href: redirectTo ?? '/' })
    },
  })
}
