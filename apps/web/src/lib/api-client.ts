import { API_REQUEST_FAILED, ApiError, SESSION_EXPIRED_MESSAGE } from './api-error.ts'
import { authClient } from './auth-client.ts'
import { getCurrentOrganizationId, setCurrentOrganizationId } from './current-organization.ts'

export type ApiRequestInit = Omit<RequestInit, 'body'> & {
  /** Plain values are sent as JSON; strings, FormData, Blobs and the like are sent as they are. */
  body?: unknown
  /** Overrides the current organization; null sends no `Organization-ID` header. */
  organizationId?: string | null
}

type ApiClientHandlers = {
  /** After a 401 that a session refresh could not cure; the user has been signed out. */
  onSessionExpired: () => void
  /** After a 403 from an admin call. */
  onForbidden: () => void
}

let handlers: ApiClientHandlers = { onSessionExpired: () => {}, onForbidden: () => {} }

/** The app wires navigation in here once, at start-up. */
export function configureApiClient(next: Partial<ApiClientHandlers>): void {
  handlers = { ...handlers, ...next }
}

/** Calls the Sprout API and returns the parsed JSON answer (undefined for an empty one). */
export async function apiRequest<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  let response = await send(path, init)
  if (response.status === 401) {
    window.dispatchEvent(new Event('unauthorized'))
    if (await refreshSession()) response = await send(path, init)
    if (response.status === 401) {
      await expireSession()
      throw new ApiError(SESSION_EXPIRED_MESSAGE, 401)
    }
  }
  if (response.status === 403 && path.startsWith('/api/admin/')) handlers.onForbidden()
  if (!response.ok) throw new ApiError(await readErrorMessage(response), response.status)
  return readBody<T>(response)
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    body instanceof ReadableStream
  )
}

async function send(path: string, init: ApiRequestInit): Promise<Response> {
  const { body, organizationId, headers: extraHeaders, ...rest } = init
  const headers = new Headers(extraHeaders)
  if (!headers.has('Accept')) headers.set('Accept', 'application/json')
  let requestBody: BodyInit | undefined
  if (body !== undefined) {
    if (isRawBody(body)) {
      requestBody = body
    } else {
      requestBody = JSON.stringify(body)
      if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json')
    }
  }
  const organizationHeader =
    organizationId === null ? undefined : (organizationId ?? getCurrentOrganizationId())
  if (organizationHeader) headers.set('Organization-ID', organizationHeader)
  try {
    return await fetch(path, { ...rest, headers, body: requestBody, credentials: 'same-origin' })
  } catch (error) {
    // An abort is the caller's decision, not a failure to report.
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError(API_REQUEST_FAILED, 0)
  }
}

async function readErrorMessage(response: Response): Promise<string> {
  try {
    const payload: unknown = await response.json()
    if (payload && typeof payload === 'object') {
      const { error, message } = payload as { error?: unknown; message?: unknown }
      if (typeof error === 'string' && error) return error
      if (typeof message === 'string' && message) return message
    }
  } catch {
    // Not JSON: fall through to the generic text.
  }
  return API_REQUEST_FAILED
}

async function readBody<T>(response: Response): Promise<T> {
  const text = await response.text()
  if (!text) return undefined as T
  const contentType = response.headers.get('Content-Type') ?? ''
  if (!contentType.includes('json')) return text as T
  return JSON.parse(text) as T
}

// Several calls can fail with 401 at once; they share one refresh and one sign-out.
let refreshing: Promise<boolean> | undefined
let expiring: Promise<void> | undefined

function refreshSession(): Promise<boolean> {
  refreshing ??= authClient
    .getSession()
    .then((result) => Boolean(result.data))
    .catch(() => false)
    .finally(() => {
      refreshing = undefined
    })
  return refreshing
}

function expireSession(): Promise<void> {
  expiring ??= (async () => {
    try {
      await authClient.signOut()
    } catch {
      // The session is already gone on the server; signing out locally is what matters.
    }
    setCurrentOrganizationId(undefined)
    handlers.onSessionExpired()
  })().finally(() => {
    expiring = undefined
  })
  return expiring
}
