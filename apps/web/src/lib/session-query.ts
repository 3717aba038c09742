import { type QueryClient, queryOptions } from '@tanstack/react-query'
import { authClient, unwrapAuthResult } from './auth-client.ts'
import { signInOptionsQueryKey } from './sign-in-options-query.ts'

export type Session = NonNullable<typeof authClient.$Infer.Session>
export type SessionUser = Session['user']

export const sessionQueryKey = ['session'] as const

/** The signed-in user and session, or null when signed out. One cache entry for the whole app. */
export const sessionQueryOptions = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: async (): Promise<Session | null> => {
    const session = await unwrapAuthResult(authClient.getSession())
    return session ?? null
  },
  staleTime: 60_000,
})

/** What is not the user's: the session itself, and what the sign-in screens offer everybody. */
const keptQueryRoots: readonly unknown[] = [sessionQueryKey[0], signInOptionsQueryKey[0]]

/**
 * Drops everything cached of the user, when another user (or nobody) takes over. The sign-in
 * options stay: dropping them under the sign-in screen that had just read them left its navbar
 * without 'Sign up' (seen in tests/e2e/auth.spec.ts after a session expired).
 */
export function forgetUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => !keptQueryRoots.includes(query.queryKey[0]) })
}
