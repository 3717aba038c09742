import { announceAuthChange } from './auth-changes.ts'

/** Ends the session; every `useAppUser()` on the page then gives null. */
export async function signOut(): Promise<void> {
  await fetch('/api/auth/sign-out', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  announceAuthChange()
}
