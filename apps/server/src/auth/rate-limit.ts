import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../http/app-env.ts'
import { tooManyRequests } from '../http/app-error.ts'

type Window = { count: number; resetAt: number }

export function clientAddress(context: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = context.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return context.env?.incoming?.socket.remoteAddress ?? 'local'
}

/** A fixed-window limiter per client address, for the sign-in and sign-up endpoints. */
export function rateLimit(options: { max: number; windowSeconds: number; trustProxy: boolean }) {
  const windows = new Map<string, Window>()
  return createMiddleware<AppEnv>(async (context, next) => {
    const now = Date.now()
    if (windows.size > 10_000) {
      for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key)
    }
    const key = `${context.req.path}|${clientAddress(context, options.trustProxy)}`
    let window = windows.get(key)
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + options.windowSeconds * 1000 }
      windows.set(key, window)
    }
    window.count += 1
    if (window.count > options.max) {
      const retryAfter = Math.max(1, Math.ceil((window.resetAt - now) / 1000))
      throw tooManyRequests(
        `Too many attempts. Please wait ${retryAfter} seconds and try again.`,
        retryAfter,
      )
    }
    await next()
  })
}
