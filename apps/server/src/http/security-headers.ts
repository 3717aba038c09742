import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../app-env.ts'
import type { Origins } from './origins.ts'

/** Security headers for the product origin; previews and deploys set their own. */
export function securityHeaders(origins: Origins) {
  const contentSecurityPolicy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${origins.previewSource}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ')
  return createMiddleware<AppEnv>(async (context, next) => {
    await next()
    context.header('Content-Security-Policy', contentSecurityPolicy)
    context.header('Referrer-Policy', 'strict-origin-when-cross-origin')
    context.header('X-Content-Type-Options', 'nosniff')
    context.header('X-Frame-Options', 'DENY')
    context.header('Cross-Origin-Opener-Policy', 'same-origin')
    if (origins.product.startsWith('https:')) {
      context.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
    }
  })
}
