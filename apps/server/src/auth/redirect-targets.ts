import { isSafeRedirectPath, redirectTargetMessage } from '@sprout/protocol/api/redirect-target.ts'
import { APIError } from 'better-auth'

/** Every field in which a better-auth endpoint takes where to send the browser afterwards. */
export const redirectTargetFields = [
  'callbackURL',
  'errorCallbackURL',
  'newUserCallbackURL',
  'redirectTo',
] as const

/**
 * Refuses, before any endpoint runs, a redirect target that is not a path on this site by the
 * web app's own rule (packages/protocol/src/api/redirect-target.ts). better-auth's check lets
 * `/.//evil.example` through, which its callback then answers as `Location: //evil.example`;
 * GET /verify-email takes its target from the query, and mailed links carry one.
 */
export function refuseUnsafeRedirectTargets(context: { body?: unknown; query?: unknown }) {
  for (const source of [context.body, context.query]) {
    if (!source || typeof source !== 'object') continue
    for (const field of redirectTargetFields) {
      const target = (source as Record<string, unknown>)[field]
      if (target === undefined || target === null || isSafeRedirectPath(target)) continue
      throw new APIError('BAD_REQUEST', {
        message: redirectTargetMessage(field),
        code: 'INVALID_REDIRECT_TARGET',
      })
    }
  }
}
