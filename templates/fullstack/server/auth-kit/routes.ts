/**
 * `mountAuthKit(app)` in server/app.ts adds the auth kit's routes to the API:
 * - /api/auth/*: better-auth (sign-up/email, sign-in/email, sign-out, verify-email,
 *   request-password-reset, reset-password, get-session, …)
 * - GET /api/auth-kit/me: `{ user: { id, name, email, role } }`, or `{ user: null }`
 * - GET /api/auth-kit/users (admins): `{ users: [{ id, name, email, role }] }`
 * - POST /api/auth-kit/users/:id/role (the owner): `{ role: 'admin' | 'member' }`
 */
import type { Env, Hono, Schema } from 'hono'
import { z } from 'zod'
import { toAppUser } from './app-user.ts'
import { auth } from './auth.ts'
import { catchMailFailures } from './mail-failures.ts'
import { publicOrigin } from './origins.ts'
import { requireAppRole } from './require-app-role.ts'
import { listAppUsers, setAppUserRole } from './users.ts'

const newRole = z.object({ role: z.enum(['admin', 'member']) })

export function mountAuthKit<E extends Env, S extends Schema, B extends string>(
  app: Hono<E, S, B>,
) {
  app.on(['GET', 'POST'], '/auth/*', async (c) => {
    const origin = publicOrigin(c.req.raw.headers)
    if (!origin) {
      const error = 'This address is not one of the app’s (SPROUT_APP_ORIGINS).'
      return c.json({ error, message: error }, 400)
    }
    const request = await comingTo(c.req.raw, origin)
    const { result, mailError } = await catchMailFailures(() => auth.handler(request))
    if (mailError) {
      const made = c.req.path.endsWith('/sign-up/email')
      const error = made
        ? `${mailError.message} Your account is made: sign in later to get a new link.`
        : mailError.message
      return c.json({ error, message: error, code: 'MAIL_NOT_SENT' }, 503)
    }
    return result
  })

  app.get('/auth-kit/me', async (c) => {
    const origin = publicOrigin(c.req.raw.headers)
    if (!origin) return c.json({ user: null })
    // With better-auth's headers: a session in use gets its cookie renewed, as get-session does.
    const { headers, response } = await auth.api.getSession({
      headers: (await comingTo(c.req.raw, origin)).headers,
      returnHeaders: true,
    })
    for (const cookie of headers.getSetCookie()) c.header('set-cookie', cookie, { append: true })
    return c.json({ user: response ? toAppUser(response.user) : null })
  })

  app.get('/auth-kit/users', requireAppRole('admin'), (c) => c.json({ users: listAppUsers() }))

  app.post('/auth-kit/users/:id/role', requireAppRole('owner'), async (c) => {
    const input = newRole.safeParse(await c.req.json().catch(() => undefined))
    if (!input.success) return c.json({ error: "role must be 'admin' or 'member'" }, 400)
    const outcome = setAppUserRole({ userId: c.req.param('id') ?? '', role: input.data.role })
    if (outcome === 'no-such-user') return c.json({ error: 'No such user.' }, 404)
    if (outcome === 'is-owner') return c.json({ error: 'The owner’s role cannot change.' }, 400)
    return c.json({ ok: true })
  })
}

/** The request as sent to `origin`: better-auth builds links and checks Origins from it. */
async function comingTo(request: Request, origin: string): Promise<Request> {
  const { host, protocol } = new URL(origin)
  const headers = new Headers(request.headers)
  headers.set('x-forwarded-host', host)
  // Sprout's proxy always says http; the listed origin knows whether the browser used https.
  headers.set('x-forwarded-proto', protocol.slice(0, -1))
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  // A new Request, not `new Request(request, …)`: the Node server's requests are not undici's.
  return new Request(request.url, {
    method: request.method,
    headers,
    body: hasBody ? await request.arrayBuffer() : undefined,
  })
}
