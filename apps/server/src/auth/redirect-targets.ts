import { isSafeRedirectPath, redirectTargetMessage } from '@sprout/protocol/api/redirect-target.ts'
import { APIError } from 'better-auth'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../http/app-env.ts'
import { badRequest } from '../http/app-error.ts'

/** Every field in which a better-auth endpoint takes where to send the browser afterwards. */
export const redirectTargetFields: readonly string[] = [
  'callbackURL',
  'errorCallbackURL',
  'newUserCallbackURL',
  'redirectTo',
]

/** The first redirect field among `entries` that is not a path on this site, if any. */
function unsafeRedirectField(entries: Iterable<[string, unknown]>): string | undefined {
  for (const [field, target] of entries) {
    if (!redirectTargetFields.includes(field) || target === undefined || target === null) continue
    if (!isSafeRedirectPath(target)) return field
  }
  return undefined
}

const entriesOf = (value: unknown): [string, unknown][] =>
  value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : []

/**
 * Refuses a redirect target that is not a path on this site by the web app's own rule
 * (packages/protocol/src/api/redirect-target.ts): better-auth's check lets `/.//evil.example`
 * through, which its callback then answers as `Location: //evil.example`. In front of
 * better-auth, so every refusal is this 400 (its own check answers absolute URLs with a bare 403),
 * on bodies and on queries (GET /verify-email takes its target from the query).
 */
export const checkRedirectTargets = createMiddleware<AppEnv>(async (context, next) => {
  let field = unsafeRedirectField(new URL(context.req.url).searchParams.entries())
  if (field === undefined && context.req.method === 'POST' && context.req.raw.body) {
    let body: unknown
    try {
      body = await context.req.raw.clone().json()
    } catch {
      body = undefined
    }
    field = unsafeRedirectField(entriesOf(body))
  }
  if (field !== undefined) throw badRequest(redirectTargetMessage(field))
  await next()
})

/** The same inside better-auth, on the body and query it parsed (every endpoint's before-hook). */
export function refuseUnsafeRedirectTargets(context: { body?: unknown; query?: unknown }) {
  const field = unsafeRedirectField([...entriesOf(context.body), ...entriesOf(context.query)])
  if (field === undefined) return
  throw new APIError('BAD_REQUEST', {
    message: redirectTargetMessage(field),
    code: 'INVALID_REDIRECT_TARGET',
  })
}
