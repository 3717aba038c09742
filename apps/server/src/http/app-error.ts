import type { ContentfulStatusCode } from 'hono/utils/http-status'

/**
 * The one error type of the server; `onError` turns it into `{ "error": message }` with its
 * status. The status is the error's kind (the web reads it, e.g. 409 to queue a message), so
 * services throw through the helpers below rather than pick numbers themselves.
 */
export class AppError extends Error {
  override name = 'AppError'
  readonly status: ContentfulStatusCode
  readonly headers: Record<string, string>

  constructor(status: ContentfulStatusCode, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.status = status
    this.headers = headers
  }
}

export const badRequest = (message: string) => new AppError(400, message)
export const unauthorized = (message = 'Authentication required') => new AppError(401, message)
export const forbidden = (message = 'You do not have permission to access this resource.') =>
  new AppError(403, message)
export const notFound = (message = 'Not found') => new AppError(404, message)
export const conflict = (message: string) => new AppError(409, message)
export const payloadTooLarge = (message: string) => new AppError(413, message)
/** Well-formed, but it cannot be done (e.g. an app whose build fails). */
export const unprocessable = (message: string) => new AppError(422, message)
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, { 'Retry-After': String(retryAfterSeconds) })
