import { bodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../app-env.ts'
import { AppError, badRequest } from '../errors/app-error.ts'

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Every request body is limited before anything parses it — better-auth's routes included —
 * whether it says its length or streams it in chunks (hono's bodyLimit stops reading past it).
 */
export function limitRequestBody(maxBytes: number) {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new AppError(
        413,
        'bad_request',
        `Request body is too large: the limit is ${maxBytes.toLocaleString('en-US')} bytes (MAX_BODY_BYTES)`,
      )
    },
  })
}

/** The path of the first string (or key) in `value` that holds a NUL byte, e.g. `members.0.name`. */
export function findNulField(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path.join('.') || 'body' : undefined
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNulField(item, [...path, String(index)])
      if (found !== undefined) return found
    }
    return undefined
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\0')) return [...path, key.replaceAll('\0', '\\0')].join('.')
      const found = findNulField(item, [...path, key])
      if (found !== undefined) return found
    }
  }
  return undefined
}

/**
 * PostgreSQL refuses NUL in text: a NUL byte in a path, a query value or a JSON string is a 400
 * naming where it is, before any route (ours or better-auth's) sees it.
 */
export const refuseNulBytes = createMiddleware<AppEnv>(async (context, next) => {
  const url = new URL(context.req.url)
  if (/%00/i.test(url.pathname) || url.pathname.includes('\0')) {
    throw badRequest('Invalid path: it contains a NUL byte (%00)')
  }
  for (const [name, value] of url.searchParams) {
    if (name.includes('\0') || value.includes('\0')) {
      throw badRequest(
        `Invalid query parameter "${name.replaceAll('\0', '\\0')}": contains a NUL byte`,
      )
    }
  }
  if (methodsWithBody.has(context.req.method) && context.req.raw.body) {
    // Bodies are limited before this (limitRequestBody), so reading a copy costs little.
    const text = await context.req.raw.clone().text()
    if (text.includes('\\u0000') || text.includes('\0')) {
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
      const field = body === undefined ? 'body' : findNulField(body)
      if (field !== undefined) throw badRequest(`Invalid field "${field}": contains a NUL byte`)
    }
  }
  await next()
})

/** better-auth answers some failures with an empty 5xx: every 5xx carries `{ "error": … }`. */
export async function withErrorBody(response: Response): Promise<Response> {
  if (response.status < 500) return response
  const text = await response.clone().text()
  try {
    if (typeof (JSON.parse(text) as { error?: unknown }).error === 'string') return response
  } catch {}
  console.error(`[auth] answered ${response.status}: ${text.slice(0, 500)}`)
  return Response.json({ error: 'An error occurred' }, { status: response.status })
}
