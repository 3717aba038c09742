/** A failed API call: the server's `{ "error": … }` text and the HTTP status (0 when unreachable). */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number

  constructor(message: string, status: number) {
    super(message)
    this.status = status
  }
}

export const API_REQUEST_FAILED = 'API request failed'
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.'
