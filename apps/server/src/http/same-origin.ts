import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'
import { forbidden } from './app-error.ts'
import { type Origins, untrustedOriginMessage } from './origins.ts'

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * better-auth's cookies (cookiePrefix 'sprout' in auth/auth.ts), with or without the
 * `__Secure-`/`__Host-` prefix it adds on https.
 */
const sessionCookiePattern = /(?:^|;)\s*(?:__Secure-|__Host-)?sprout\.[^=;]*=/

export function carriesSessionCookie(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && sessionCookiePattern.test(cookieHeader)
}

/**
 * CSRF: cookie-authenticated writes must come from the product's own origin, even with an
 * `Authorization` header beside the cookie. Only bearer-token calls without our session cookie
 * carry no ambient credentials and skip the check.
 */
export function requireSameOriginForCookieWrites(origins: Origins) {
  return createMiddleware<AppEnv>(async (context, next) => {
    if (safeMethods.has(context.req.method)) return next()
    const cookie = context.req.header('cookie')
    if (!cookie) return next()
    if (!carriesSessionCookie(cookie) && context.req.header('authorization')) return next()
    const origin = context.req.header('origin')
    if (!origins.isProduct(origin)) throw forbidden(untrustedOriginMessage(origins.product))
    await next()
  })
}
