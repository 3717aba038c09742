import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../http/app-env.ts'
import { forbidden } from '../http/app-error.ts'

/** Admin-only calls answer 403 to everybody else; runs after requireSession. */
export const requirePlatformAdmin = createMiddleware<AppEnv>(async (context, next) => {
  if (!context.var.isPlatformAdmin) throw forbidden()
  await next()
})
