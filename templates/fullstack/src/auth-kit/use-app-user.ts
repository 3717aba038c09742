import { useEffect, useState } from 'react'
import type { AppUser } from '../../server/auth-kit/app-user.ts'
import { onAuthChange } from './auth-changes.ts'

export type { AppUser }

/**
 * The signed-in user of the app (`{ id, name, email, role }`) or null, from /api/auth-kit/me;
 * `loading` until the first answer. Updates when the page signs in or out.
 */
export function useAppUser(): { user: AppUser | null; loading: boolean } {
  const [state, setState] = useState<{ user: AppUser | null; loading: boolean }>({
    user: null,
    loading: true,
  })
  useEffect(() => {
    let mounted = true
    const load = () =>
      fetch('/api/auth-kit/me')
        .then((response) => (response.ok ? response.json() : { user: null }))
        .then(
          (body: { user?: AppUser | null }) =>
            mounted && setState({ user: body.user ?? null, loading: false }),
        )
        .catch(() => mounted && setState({ user: null, loading: false }))
    load()
    const stopListening = onAuthChange(load)
    return () => {
      mounted = false
      stopListening()
    }
  }, [])
  return state
}
