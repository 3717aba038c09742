import { devboxTokenResponseSchema } from '@sprout/protocol/api/applications.ts'
import { apiRequest } from '../../lib/api-client.ts'
import { API_REQUEST_FAILED, ApiError } from '../../lib/api-error.ts'
import { TOKEN_FAILED_ERROR } from './devbox-auth-request.ts'

/**
 * Where a dev box's preview origin exchanges the token for its own cookie (docs/product/auth.md).
 */
export const DEVBOX_CALLBACK_PATH = '/__sprout/auth/callback'

/** A single-use token (60 s, bound to the user and the application) for one dev box. */
export async function requestDevboxToken(devboxUrl: string): Promise<string> {
  const answer = await apiRequest('/api/org/devbox-token', {
    method: 'POST',
    body: { devbox_url: devboxUrl },
  })
  return devboxTokenResponseSchema.parse(answer).token
}

export function devboxCallbackUrl(devboxUrl: string, token: string, returnPath: string): string {
  const url = new URL(DEVBOX_CALLBACK_PATH, new URL(devboxUrl).origin)
  url.searchParams.set('token', token)
  url.searchParams.set('return', returnPath)
  return url.toString()
}

/** The server's own words when it gave any, else the docs/product/auth.md text. */
export function devboxTokenErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status > 0 && error.message !== API_REQUEST_FAILED) {
    return error.message
  }
  return TOKEN_FAILED_ERROR
}
