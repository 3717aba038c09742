import type { ServerResponse } from 'node:http'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'
import type { Origins } from './origins.ts'

/**
 * The Google Picker API: Settings loads its script (GOOGLE_PICKER_SCRIPT_URL) and shows its frame
 * for the spreadsheet integration's 'Select Files' (docs/product/integrations.md "Settings screen").
 */
const googlePickerFrames = 'https://docs.google.com'

/** Security headers for the product origin; previews and deploys set their own. */
export function securityHeaders(origins: Origins, options: { pickerScriptUrl: string }) {
  const contentSecurityPolicy = [
    "default-src 'self'",
    `script-src 'self' ${new URL(options.pickerScriptUrl).origin}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${origins.previewSource} ${googlePickerFrames}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ')
  const headers: [string, string][] = [
    ['Content-Security-Policy', contentSecurityPolicy],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
  ]
  if (origins.product.startsWith('https:')) {
    headers.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'])
  }
  return createMiddleware<AppEnv>(async (context, next) => {
    const outgoing = (context.env as { outgoing?: ServerResponse } | undefined)?.outgoing
    if (outgoing) {
      // Served by Node: set on its response before the route answers (Node merges them with the
      // route's). Setting them on `context.res.headers` afterwards built an undici Headers per
      // answer, then copied and sorted it back (docs/performance.md "API and proxies (second pass)").
      for (const [name, value] of headers) outgoing.setHeader(name, value)
      return next()
    }
    // Without Node's response (`app.request()` in tests), on the finished Response.
    await next()
    if (context.res === RESPONSE_ALREADY_SENT) return
    // Set on the finished response's headers at once: context.header() after the response
    // exists copies the whole Response for every header (a third of a cached API call's cost).
    const target = context.res.headers
    for (const [name, value] of headers) target.set(name, value)
  })
}
