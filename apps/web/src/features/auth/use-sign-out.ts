import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { authClient } from '../../lib/auth-client.ts'
import { setCurrentOrganizationId } from '../../lib/current-organization.ts'
import { forgetUserData, sessionQueryKey } from '../../lib/session-query.ts'

export function useSignOut() {
  const queryClient = useQueryClient()
  const router = useRouter()
  return useMutation({
    mutationFn: async () => {
      await authClient.signOut()
      setCurrentOrganizationId(undefined)
      queryClient.setQueryData(sessionQueryKey, null)
      await router.navigate({ to: '/signin' })
      forgetUserData(queryClient)
    },
  })
}
