import { type QueryClient, queryOptions } from '@tanstack/react-query'
import { authClient, unwrapAuthResult } from './auth-client.ts'

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

/** Drops everything cached except the session, when another user (or nobody) takes over. */
export function forgetUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] })
}
