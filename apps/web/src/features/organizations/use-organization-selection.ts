import { useQuery } from '@tanstack/react-query'
import { useSyncExternalStore } from 'react'
import { sessionQueryOptions } from '../../lib/session-query.ts'
import { type OrganizationSelection, readOrganizationSelection } from './organization-selection.ts'
import { hasSelectedPersonal, subscribePersonalMode } from './personal-mode.ts'

/** The current selection, kept up to date with the session and the personal-mode flag. */
export function useOrganizationSelection(): OrganizationSelection | undefined {
  const { data: session } = useQuery(sessionQueryOptions)
  const userId = session?.user.id
  // Subscribing re-renders the caller when the flag changes; the value itself is read below.
  useSyncExternalStore(subscribePersonalMode, () => (userId ? hasSelectedPersonal(userId) : false))
  return session ? readOrganizationSelection(session) : undefined
}
