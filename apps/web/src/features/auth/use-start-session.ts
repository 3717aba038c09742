import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { setCurrentOrganizationId } from '../../lib/current-organization.ts'
import { forgetUserData, type Session, sessionQueryOptions } from '../../lib/session-query.ts'

/** After signing in or up: forget everything cached for whoever was here before, load the session. */
export function useStartSession(): () => Promise<Session> {
  const queryClient = useQueryClient()
  return useCallback(async () => {
    setCurrentOrganizationId(undefined)
    forgetUserData(queryClient)
    const session = await queryClient.fetchQuery({ ...sessionQueryOptions, staleTime: 0 })
    if (!session) throw new Error('Signing in did not start a session. Please try again.')
    return session
  }, [queryClient])
}
