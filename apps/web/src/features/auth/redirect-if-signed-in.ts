import type { QueryClient } from '@tanstack/react-query'
import { redirect } from '@tanstack/react-router'
import { sessionQueryOptions } from '../../lib/session-query.ts'

/** beforeLoad of the sign-in and sign-up pages: someone signed in goes home instead. */
export async function redirectIfSignedIn({ context }: { context: { queryClient: QueryClient } }) {
  const session = await context.queryClient.ensureQueryData(sessionQueryOptions)
  if (session) throw redirect({ to: '/' })
}
