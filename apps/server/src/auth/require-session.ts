import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../app-env.ts'
import type { Config } from '../config/config.ts'
import { unauthorized } from '../errors/app-error.ts'
import type { Auth } from './auth.ts'
import { type AuthCache, credentialKey } from './auth-cache.ts'

export function isPlatformAdmin(
  user: { role?: string | null; email: string },
  config: Pick<Config, 'adminEmails'>,
): boolean {
  const roles = (user.role ?? '').split(',').map((role) => role.trim())
  return roles.includes('admin') || config.adminEmails.includes(user.email.toLowerCase())
}

/** Resolves the caller from the session cookie or `Authorization: Bearer`; 401 otherwise. */
export function requireSession(auth: Auth, config: Pick<Config, 'adminEmails'>, cache: AuthCache) {
  return createMiddleware<AppEnv>(async (context, next) => {
    const headers = context.req.raw.headers
    const key = credentialKey(headers)
    if (!key) throw unauthorized()
    let result = cache.sessions.get(key)
    if (!result) {
      const fresh = await auth.api.getSession({ headers })
      if (!fresh) throw unauthorized()
      result = fresh
      cache.sessions.set(key, fresh, new Date(fresh.session.expiresAt).getTime())
    }
    context.set('user', result.user)
    context.set('session', result.session)
    context.set('isPlatformAdmin', isPlatformAdmin(result.user, config))
    await next()
  })
}
