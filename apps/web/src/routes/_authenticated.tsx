import { createFileRoute, redirect } from '@tanstack/react-router'
import { sessionQueryOptions } from '../lib/session-query.ts'

/** Every route under here needs a signed-in user; others go to /signin and come back after. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQueryOptions)
    if (!session) {
      throw redirect({
        to: '/signin',
        search: { redirect: location.href === '/' ? undefined : location.href },
      })
    }
    return { session }
  },
})
