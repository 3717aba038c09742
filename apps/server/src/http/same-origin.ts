import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../app-env.ts'
import { forbidden } from '../errors/app-error.ts'
import { type Origins, untrustedOriginMessage } from './origins.ts'

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Cookie-authenticated writes must come from the product's own origin (CSRF). Bearer calls carry
 * no ambient credentials, so they are not checked.
 */
export function requireSameOriginForCookieWrites(origins: Origins) {
  return createMiddleware<AppEnv>(async (context, next) => {
    if (safeMethods.has(context.req.method) || context.req.header('authorization')) {
      return next()
    }
    if (!context.req.header('cookie')) return next()
    const origin = context.req.header('origin')
    if (!origins.isProduct(origin)) throw forbidden(untrustedOriginMessage(origins.product))
    await next()
  })
}
