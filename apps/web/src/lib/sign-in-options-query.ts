import type { SignInOptions } from '@sprout/protocol/api/access.ts'
import { useQuery } from '@tanstack/react-query'
import { apiRequest } from './api-client.ts'

export const signInOptionsQueryKey = ['sign-in-options'] as const

/** What the sign-in screens offer: sign-up rules, mail, single sign-on (docs/product/auth.md). */
export function useSignInOptions({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    enabled,
    queryKey: signInOptionsQueryKey,
    queryFn: () => apiRequest<SignInOptions>('/api/sign-in-options', { organizationId: null }),
    staleTime: 60_000,
  })
}
