import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../http/app-env.ts'
import { tooManyRequests } from '../http/app-error.ts'
import type { ResolvedSession } from './auth-cache.ts'
import { createWindows } from './rate-limit.ts'

/** docs/product/organizations.md "Invitations": how many invitations an hour may go out. */
export const invitationLimits = { perInviter: 30, perOrganization: 60, windowSeconds: 3600 }

export const tooManyInvitations = (minutes: number) =>
  `Too many invitations. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`

/** The organization an invitation is for: the body's, else the caller's active one. */
async function organizationOf(context: Context<AppEnv>, caller: ResolvedSession) {
  try {
    const body: unknown = await context.req.raw.clone().json()
    const named = (body as { organizationId?: unknown } | null)?.organizationId
    if (typeof named === 'string') return named
  } catch {}
  const active = (caller.session as { activeOrganizationId?: unknown }).activeOrganizationId
  return typeof active === 'string' ? active : undefined
}

/**
 * Invitations (each one a mail to any address, a resent one too) counted per inviter and per
 * organization, in memory like the other limits (decision 004). Each call counts as it starts, so
 * calls side by side cannot all slip in; a 429 with `Retry-After` says how long to wait.
 */
export function invitationLimit(options: {
  callerOf: (context: Context<AppEnv>) => Promise<ResolvedSession | undefined>
  limits?: typeof invitationLimits
}) {
  const limits = options.limits ?? invitationLimits
  const windowSeconds = limits.windowSeconds
  const inviters = createWindows({ max: limits.perInviter, windowSeconds })
  const organizations = createWindows({ max: limits.perOrganization, windowSeconds })
  return createMiddleware<AppEnv>(async (context, next) => {
    const caller = await options.callerOf(context)
    // Without a session better-auth answers 401 itself.
    if (caller) {
      const organizationId = await organizationOf(context, caller)
      const retryAfter =
        inviters.take(caller.user.id) ??
        (organizationId === undefined ? undefined : organizations.take(organizationId))
      if (retryAfter !== undefined) {
        const minutes = Math.max(1, Math.ceil(retryAfter / 60))
        throw tooManyRequests(tooManyInvitations(minutes), retryAfter)
      }
    }
    await next()
  })
}
