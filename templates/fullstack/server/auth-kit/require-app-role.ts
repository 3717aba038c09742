/**
 * `requireAppRole('admin')` before a route's handler: 401 without a signed-in user, 403 when
 * the user's role is lower (owner > admin > member) or the request came from another site.
 *
 *   app.delete('/products/:id', requireAppRole('admin'), (c) => { ... })
 */
import { createMiddleware } from 'hono/factory'
import { appUser } from './app-user.ts'
import { comesFromApp } from './origins.ts'
import { type AppRole, hasAppRole } from './roles.ts'

const refusals: Record<AppRole, string> = {
  member: 'Sign in first.',
  admin: 'Only admins can do this.',
  owner: 'Only the owner can do this.',
}

export function requireAppRole(role: AppRole) {
  return createMiddleware(async (c, next) => {
    if (!comesFromApp(c.req.raw))
      return c.json({ error: 'Requests from other sites are refused.' }, 403)
    const user = await appUser(c)
    if (!user) return c.json({ error: 'Sign in first.' }, 401)
    if (!hasAppRole(user.role, role)) return c.json({ error: refusals[role] }, 403)
    await next()
  })
}
