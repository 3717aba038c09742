/** Signing in or out tells every `useAppUser()` on the page to ask the server again. */
const authChange = 'auth-kit:change'

export function announceAuthChange() {
  window.dispatchEvent(new Event(authChange))
}

export function onAuthChange(listener: () => void): () => void {
  window.addEventListener(authChange, listener)
  return () => window.removeEventListener(authChange, listener)
}
