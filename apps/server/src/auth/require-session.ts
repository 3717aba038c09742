import { createMiddleware } from 'hono/factory'
import type { Config } from '../config/config.ts'
import type { AppEnv } from '../http/app-env.ts'
import { unauthorized } from '../http/app-error.ts'
import type { Auth } from './auth.ts'
import { type AuthCache, credentialKey, type ResolvedSession } from './auth-cache.ts'

export function isPlatformAdmin(
  user: { role?: string | null; email: string },
  config: Pick<Config, 'adminEmails'>,
): boolean {
  const roles = (user.role ?? '').split(',').map((role) => role.trim())
  return roles.includes('admin') || config.adminEmails.includes(user.email.toLowerCase())
}

/** The session the cookie or `Authorization: Bearer` names, if any (cached). */
export async function findSession(
  auth: Auth,
  cache: AuthCache,
  headers: Headers,
): Promise<ResolvedSession | undefined> {
  const key = credentialKey(headers)
  if (!key) return undefined
  const cached = cache.sessions.get(key)
  if (cached) return cached
  const fresh = await auth.api.getSession({ headers })
  if (!fresh) return undefined
  cache.sessions.set(key, fresh, new Date(fresh.session.expiresAt).getTime())
  return fresh
}

/** Resolves the caller from the session cookie or `Authorization: Bearer`; 401 otherwise. */
export function requireSession(auth: Auth, config: Pick<Config, 'adminEmails'>, cache: AuthCache) {
  return createMiddleware<AppEnv>(async (context, next) => {
    const result = await findSession(auth, cache, context.req.raw.headers)
    if (!result) throw unauthorized()
    context.set('user', result.user)
    context.set('session', result.session)
    // Worked out once per cached session, not on every request.
    result.isPlatformAdmin ??= isPlatformAdmin(result.user, config)
    context.set('isPlatformAdmin', result.isPlatformAdmin)
    await next()
  })
}
