import type { ContentfulStatusCode } from 'hono/utils/http-status'

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'unavailable'
  | 'internal'

/** The one error type of the server; `onError` turns it into `{ "error": message }`. */
export class AppError extends Error {
  override name = 'AppError'
  readonly status: ContentfulStatusCode
  readonly code: ErrorCode
  readonly headers: Record<string, string>

  constructor(
    status: ContentfulStatusCode,
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message)
    this.status = status
    this.code = code
    this.headers = headers
  }
}

export const badRequest = (message: string) => new AppError(400, 'bad_request', message)
export const unauthorized = (message = 'Authentication required') =>
  new AppError(401, 'unauthorized', message)
export const forbidden = (message = 'You do not have permission to access this resource.') =>
  new AppError(403, 'forbidden', message)
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message)
export const conflict = (message: string) => new AppError(409, 'conflict', message)
