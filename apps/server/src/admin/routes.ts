import { Hono } from 'hono'
import type { AppEnv } from '../http/app-env.ts'

export function adminRoutes() {
  return new Hono<AppEnv>().get('/api/admin/status', (context) =>
    context.json({ isAdmin: context.var.isPlatformAdmin }),
  )
}
