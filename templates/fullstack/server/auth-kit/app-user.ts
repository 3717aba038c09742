/**
 * `await appUser(c)` in a route: the app's signed-in user, `{ id, name, email, role }`, or null.
 * A change (POST, PUT, DELETE…) sent by another site's page gets null, whatever its cookies.
 */
import type { Context } from 'hono'
import { auth } from './auth.ts'
import { comesFromApp } from './origins.ts'
import { type AppRole, toAppRole } from './roles.ts'

export type AppUser = { id: string; name: string; email: string; role: AppRole }

const usersOfRequests = new WeakMap<Request, Promise<AppUser | null>>()

export function appUser(c: Context): Promise<AppUser | null> {
  let user = usersOfRequests.get(c.req.raw)
  if (!user) {
    user = findAppUser(c.req.raw)
    usersOfRequests.set(c.req.raw, user)
  }
  return user
}

async function findAppUser(request: Request): Promise<AppUser | null> {
  if (!comesFromApp(request)) return null
  // A host that is not the app's makes better-auth throw: nobody is signed in there.
  const found = await auth.api.getSession({ headers: request.headers }).catch(() => null)
  return found ? toAppUser(found.user) : null
}

export function toAppUser(user: {
  id: string
  name: string
  email: string
  role?: unknown
}): AppUser {
  return { id: user.id, name: user.name, email: user.email, role: toAppRole(user.role) }
}
