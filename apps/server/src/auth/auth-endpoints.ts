/**
 * The better-auth endpoints the product's screens use (apps/web's authClient calls, and the
 * short-lived stream token). Every other one — the admin plugin's user and session management,
 * impersonation, session lists that carry tokens — answers 404.
 */
export const allowedAuthEndpoints = new Set([
  'POST /sign-up/email',
  'POST /sign-in/email',
  'POST /sign-out',
  'POST /request-password-reset',
  'POST /reset-password',
  'GET /verify-email',
  'POST /send-verification-email',
  'POST /sign-in/social',
  'GET /callback/sso',
  'POST /callback/sso',
  'POST /update-user',
  'POST /change-email',
  'POST /change-password',
  'POST /revoke-other-sessions',
  'GET /get-session',
  'GET /token',
  'POST /organization/create',
  'POST /organization/set-active',
  'GET /organization/list',
  'POST /organization/invite-member',
  'GET /organization/get-invitation',
  'POST /organization/accept-invitation',
  'POST /organization/reject-invitation',
  'POST /organization/cancel-invitation',
  'GET /organization/list-invitations',
  'GET /organization/list-members',
  'POST /organization/leave',
])

const authBasePath = '/api/auth'

export function isAllowedAuthEndpoint(method: string, requestPath: string): boolean {
  if (!requestPath.startsWith(`${authBasePath}/`)) return false
  return allowedAuthEndpoints.has(`${method} ${requestPath.slice(authBasePath.length)}`)
}

/**
 * No answer carries a session token in its body: not the caller's (get-session, sign-in) nor
 * anybody else's. Browsers use the HttpOnly cookie; API clients get their own new session's
 * token once, in the sign-in/sign-up `set-auth-token` header (better-auth's bearer plugin).
 */
export function withoutSessionTokens(value: unknown, isRoot = true): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutSessionTokens(item, false))
  if (!value || typeof value !== 'object') return value
  const entries = Object.entries(value)
  const isSession = 'userId' in value && 'expiresAt' in value
  return Object.fromEntries(
    entries
      .filter(([key]) => !(key === 'token' && (isRoot || isSession)))
      .map(([key, item]) => [key, withoutSessionTokens(item, false)]),
  )
}

/** The same, on a better-auth response (the JWT of GET /token is not a session token). */
export async function stripSessionTokens(response: Response, requestPath: string) {
  if (requestPath === `${authBasePath}/token`) return response
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response
  const text = await response.clone().text()
  if (!text.includes('"token"')) return response
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return response
  }
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  return new Response(JSON.stringify(withoutSessionTokens(body)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}
