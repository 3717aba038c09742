import { authRequestSchemas } from '@sprout/protocol/api/auth.ts'
import { exceedsJsonDepth, jsonTooDeepMessage } from '@sprout/protocol/text/json-depth.ts'
import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import { matchedRoutes } from 'hono/route'
import type { AppEnv } from './app-env.ts'
import { badRequest, payloadTooLarge } from './app-error.ts'
import { parseJsonText, parseValue } from './parse-request.ts'

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** A path whose body is not JSON and has a limit of its own (an image upload). */
export type BinaryBody = { path: string; maxBytes: number; tooLargeMessage: string }

/**
 * Limits every body before any parsing (better-auth's too), declared or chunked. A declared length
 * is checked from the header: reading `c.req.raw.body`, as hono's bodyLimit does, builds a full
 * undici Request (a sixth of a cached GET). Chunked bodies go through bodyLimit.
 */
export function limitRequestBody(maxBytes: number, binaryBodies: BinaryBody[] = []) {
  const limiter = (limit: number, message: string) => {
    const tooLarge = () => {
      throw payloadTooLarge(message)
    }
    const streamed = bodyLimit({ maxSize: limit, onError: tooLarge })
    return createMiddleware<AppEnv>(async (context, next) => {
      const length = context.req.header('content-length')
      if (length !== undefined && context.req.header('transfer-encoding') === undefined) {
        // What bodyLimit does with a declared length: node's parser reads exactly that many bytes.
        if (Number.parseInt(length, 10) > limit) tooLarge()
        return next()
      }
      return streamed(context, next)
    })
  }
  const general = limiter(
    maxBytes,
    `Request body is too large: the limit is ${maxBytes.toLocaleString('en-US')} bytes (MAX_BODY_BYTES)`,
  )
  const binary = new Map(
    binaryBodies.map((body) => [body.path, limiter(body.maxBytes, body.tooLargeMessage)]),
  )
  return createMiddleware<AppEnv>(async (context, next) => {
    const method = context.req.method
    if (method === 'GET' || method === 'HEAD') return next()
    return (binary.get(context.req.path) ?? general)(context, next)
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
 * naming where it is, before any route (ours or better-auth's) sees it. So is a body nested
 * deeper than JSON_MAX_DEPTH, which recursive code (better-auth's, JSON.stringify) cannot take.
 */
export const refuseUnsafeInput = (binaryPaths: string[] = []) =>
  createMiddleware<AppEnv>(async (context, next) => {
    const href = context.req.url
    // A NUL reaches the path or a query value only as %00 (or raw, which node's parser refuses
    // before us): a URL holding neither needs no URL object nor a walk over its parameters.
    if (href.includes('%00') || href.includes('\0')) refuseNulInUrl(context, new URL(href))
    // An image's bytes are no JSON: their route reads them as what they are.
    if (methodsWithBody.has(context.req.method) && !binaryPaths.includes(context.req.path)) {
      // Bodies are already limited (limitRequestBody). better-auth reads the raw request itself, so
      // it gets a copy; other routes share hono's kept `req.text()` with this scan, without
      // materializing the full request.
      const text = context.req.path.startsWith('/api/auth/')
        ? await context.req.raw.clone().text()
        : await context.req.text()
      if (exceedsJsonDepth(text)) throw badRequest(jsonTooDeepMessage())
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

function refuseNulInUrl(context: Context<AppEnv>, url: URL) {
  if (/%00/i.test(url.pathname) || url.pathname.includes('\0')) {
    const parameter = nulPathParameter(url.pathname, matchedRoutes(context))
    throw badRequest(
      parameter
        ? `Invalid path parameter "${parameter}": contains a NUL byte`
        : 'Invalid path: it contains a NUL byte (%00)',
    )
  }
  for (const [name, value] of url.searchParams) {
    if (name.includes('\0') || value.includes('\0')) {
      throw badRequest(
        `Invalid query parameter "${name.replaceAll('\0', '\\0')}": contains a NUL byte`,
      )
    }
  }
}

/**
 * better-auth checks types but not sizes: a field past its limit (packages/protocol/src/api/auth.ts)
 * is a 400 naming it, before better-auth stores it (a 900 KB slug overflowed its index).
 */
export const checkAuthBodies = createMiddleware<AppEnv>(async (context, next) => {
  const schema = authRequestSchemas[context.req.path.replace(/^\/api\/auth/, '')]
  if (schema && context.req.method === 'POST' && context.req.raw.body) {
    const text = await context.req.raw.clone().text()
    if (text.trim() !== '') parseValue(schema, parseJsonText(text))
  }
  await next()
})

/**
 * The name of the path parameter holding the NUL byte, read off the routes this request matched
 * (`/api/applications/:id` → `id`); undefined when no route names that segment.
 */
function nulPathParameter(pathname: string, routes: { path: string }[]): string | undefined {
  const segments = pathname.split('/')
  for (const route of routes) {
    const pattern = route.path.split('/')
    for (const [index, segment] of pattern.entries()) {
      const value = segments[index]
      if (!segment.startsWith(':') || value === undefined) continue
      if (/%00/i.test(value) || value.includes('\0')) return segment.slice(1).replace(/[{?].*$/, '')
    }
  }
  return undefined
}

/**
 * better-auth's failures carry `{ "error": … }` like ours: a 4xx keeps its fields and gains
 * `error` (its `message`); a 5xx without one (some are empty) gets the generic text, logged.
 */
export async function withErrorBody(response: Response): Promise<Response> {
  if (response.status < 400) return response
  const text = await response.clone().text()
  let fields: Record<string, unknown> = {}
  try {
    const body: unknown = JSON.parse(text)
    if (body && typeof body === 'object' && !Array.isArray(body)) fields = { ...body }
  } catch {}
  if (typeof fields.error === 'string' && fields.error) return response
  let error = 'Request failed'
  if (response.status >= 500) {
    console.error(`[auth] answered ${response.status}: ${text.slice(0, 500)}`)
    fields = {}
    error = 'An error occurred'
  } else if (typeof fields.message === 'string' && fields.message) {
    error = fields.message
  }
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  headers.set('content-type', 'application/json')
  return new Response(JSON.stringify({ ...fields, error }), {
    status: response.status,
    headers,
  })
}
