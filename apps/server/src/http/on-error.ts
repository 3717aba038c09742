import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { AppError } from './app-error.ts'

/** Maps every thrown error to `{ "error": message }`; unexpected ones are logged, never returned. */
export function onError(error: Error, context: Context): Response {
  if (error instanceof AppError) {
    return context.json({ error: error.message }, error.status, error.headers)
  }
  if (error instanceof HTTPException) {
    return context.json({ error: error.message || 'Request failed' }, error.status)
  }
  console.error(`[server] ${context.req.method} ${context.req.path} failed:`, error)
  return context.json({ error: 'An error occurred' }, 500)
}
