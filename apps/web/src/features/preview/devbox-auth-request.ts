// docs/product/auth.md "Devbox auth" texts.
export const MALFORMED_AUTH_ERROR = 'Invalid authentication request: malformed auth parameter'
export const MISSING_DEVBOX_ERROR = 'Invalid authentication request: missing devbox URL'
export const TOKEN_FAILED_ERROR = 'Failed to generate authentication token'
export const AUTHENTICATION_FAILED = 'Authentication failed'

export type DevboxAuthRequest = { devboxUrl: string; returnPath: string }

export type DevboxAuthParseResult =
  | { ok: true; request: DevboxAuthRequest }
  | { ok: false; error: string }

/** Base64 or base64url, padded or not; '+' that a query string turned into ' ' is put back. */
function decodeBase64Json(encoded: string): unknown {
  const normalized = encoded.trim().replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/')
  const padded = normalized.padEnd(normalized.length + ((4 - (normalized.length % 4)) % 4), '=')
  const binary = atob(padded)
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0))
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
}

/** Only a path on the dev box: never another origin (the dev box checks this again). */
function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '/'
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/'
  return value
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * docs/product/auth.md "Devbox auth": the dev box URL and return path come either from a base64
 * JSON `auth` parameter ({ devbox, return }) or from the plain parameters `devbox` and `return`
 * (default /).
 */
export function parseDevboxAuthRequest(search: URLSearchParams): DevboxAuthParseResult {
  let devbox: unknown
  let returnPath: unknown
  const auth = search.get('auth')
  if (auth !== null) {
    let payload: unknown
    try {
      payload = decodeBase64Json(auth)
    } catch {
      return { ok: false, error: MALFORMED_AUTH_ERROR }
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
      return { ok: false, error: MALFORMED_AUTH_ERROR }
    }
    ;({ devbox, return: returnPath } = payload as { devbox?: unknown; return?: unknown })
  } else {
    devbox = search.get('devbox')
    returnPath = search.get('return')
  }
  if (typeof devbox !== 'string' || !isHttpUrl(devbox)) {
    return { ok: false, error: MISSING_DEVBOX_ERROR }
  }
  return { ok: true, request: { devboxUrl: devbox, returnPath: safeReturnPath(returnPath) } }
}
