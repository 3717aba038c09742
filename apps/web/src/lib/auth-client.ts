import { adminClient, organizationClient } from 'better-auth/client/plugins'
import { createAuthClient } from 'better-auth/react'

/** better-auth on the same origin; the session lives in an HttpOnly cookie, never in storage. */
export const authClient = createAuthClient({
  baseURL: window.location.origin,
  basePath: '/api/auth',
  plugins: [organizationClient(), adminClient()],
})

type AuthResult<T> = {
  data: T | null
  error: { message?: string; error?: string; statusText?: string; status?: number } | null
}

/** better-auth answers `{ data, error }`; this turns an error into a thrown Error with its text. */
export async function unwrapAuthResult<T>(result: Promise<AuthResult<T>>): Promise<T> {
  const { data, error } = await result
  if (error) {
    throw new Error(error.message || error.error || error.statusText || 'An error occurred')
  }
  return data as T
}
