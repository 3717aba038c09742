import { type Context, Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AuditLog } from '../audit/audit-log.ts'
import type { Config } from '../config/config.ts'
import type { AppEnv } from '../http/app-env.ts'
import { notFound } from '../http/app-error.ts'
import { type Origins, untrustedOriginMessage } from '../http/origins.ts'
import { checkAuthBodies, withErrorBody } from '../http/request-guards.ts'
import type { Auth } from './auth.ts'
import { auditAuthRequest, isAuditedAuthPath } from './auth-audit.ts'
import type { AuthCache } from './auth-cache.ts'
import { isAllowedAuthEndpoint, stripSessionTokens } from './auth-endpoints.ts'
import { explainAuthRefusal } from './auth-refusals.ts'
import { invitationLimit } from './invitation-limit.ts'
import { failedAttemptLimit, mailLimit, rateLimit } from './rate-limit.ts'
import { checkRedirectTargets } from './redirect-targets.ts'
import { findSession } from './require-session.ts'

/**
 * better-auth's endpoints under /api/auth: the allowed ones only, rate limited per client address
 * and per account (decision 004), session tokens kept out of bodies, and the auth cache flushed
 * after each write that may change a session or a membership.
 */
export function authRoutes(options: {
  auth: Auth
  authCache: AuthCache
  origins: Origins
  config: Pick<
    Config,
    'authRateLimit' | 'authAccountRateLimit' | 'authMailRateLimit' | 'trustProxy'
  >
  audit: Pick<AuditLog, 'record'>
}) {
  const { auth, authCache, origins, config } = options
  const app = new Hono<AppEnv>()
  const { trustProxy } = config
  const limiter = rateLimit({ ...config.authRateLimit, trustProxy })
  const signedInUser = async (context: Context<AppEnv>) =>
    (await findSession(auth, authCache, context.req.raw.headers))?.user
  const addressOrUser = async (context: Context<AppEnv>) => {
    const email = await bodyEmail(context)
    if (email !== undefined) return email
    return (await signedInUser(context))?.email.toLowerCase()
  }
  for (const path of [
    '/api/auth/sign-in/*',
    '/api/auth/sign-up/*',
    '/api/auth/request-password-reset',
    '/api/auth/reset-password',
    '/api/auth/send-verification-email',
    '/api/auth/change-password',
  ]) {
    app.use(path, limiter)
  }
  // Decision 004: guesses of one account's password count from every client address.
  app.use(
    '/api/auth/sign-in/email',
    failedAttemptLimit({
      ...config.authAccountRateLimit,
      trustProxy,
      accountOf: bodyEmail,
      message: 'Too many failed sign-ins to this account.',
    }),
  )
  app.use(
    '/api/auth/change-password',
    failedAttemptLimit({
      ...config.authAccountRateLimit,
      trustProxy,
      accountOf: async (context) => (await signedInUser(context))?.id,
      message: 'Too many wrong current passwords for this account.',
    }),
  )
  // Each kind of mail has its own count, so asking for one never holds back the other.
  for (const path of ['/api/auth/send-verification-email', '/api/auth/request-password-reset']) {
    const message = 'Too many emails to this address.'
    app.use(path, mailLimit({ ...config.authMailRateLimit, accountOf: addressOrUser, message }))
  }
  app.use('/api/auth/request-password-reset', answerNoSoonerThan(resetRequestFloorMs))
  app.use('/api/auth/*', checkAuthBodies)
  app.use('/api/auth/*', checkRedirectTargets)
  // An invitation mails any address: limited per inviter and per organization
  // (after the body checks, so a refused body counts for nothing).
  app.use(
    '/api/auth/organization/invite-member',
    invitationLimit({
      callerOf: (context) => findSession(auth, authCache, context.req.raw.headers),
    }),
  )
  app.on(['GET', 'POST'], '/api/auth/*', async (context) => {
    if (!isAllowedAuthEndpoint(context.req.method, context.req.path)) {
      throw notFound('No such API route')
    }
    // What the audit log needs of the request, read before better-auth takes it.
    const audited = isAuditedAuthPath(context.req.path)
    const body = audited ? await jsonBodyOf(context) : {}
    const before = audited ? await signedInUser(context) : undefined
    const response = await stripSessionTokens(await auth.handler(context.req.raw), context.req.path)
    if (response.ok && changesAuthState(context.req.method, context.req.path))
      await authCache.flush()
    await auditAuthRequest({
      audit: options.audit,
      context,
      trustProxy,
      body,
      before,
      response,
      signedInBy: async () => {
        const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0])
        if (cookies.length === 0) return undefined
        return (await findSession(auth, authCache, new Headers({ cookie: cookies.join('; ') })))
          ?.user
      },
    })
    const explained = await explainAuthRefusal(response)
    return withErrorBody(await explainUntrustedOrigin(explained, origins.product))
  })
  return app
}

/** A request's JSON object body, read from a copy (better-auth reads the request itself). */
async function jsonBodyOf(context: Context<AppEnv>): Promise<Record<string, unknown>> {
  if (context.req.method !== 'POST' || !context.req.raw.body) return {}
  try {
    const body: unknown = await context.req.raw.clone().json()
    return body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

/** The lower-cased `email` of a JSON body (the only kind better-auth reads here), if any. */
async function bodyEmail(context: Context<AppEnv>): Promise<string | undefined> {
  const { email } = await jsonBodyOf(context)
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined
}

/**
 * 'Forgot password?' answers alike whether or not the address has an account; the floor keeps
 * the time alike too (the known address writes a token and a mail, the unknown one reads).
 */
const resetRequestFloorMs = 250

function answerNoSoonerThan(floorMs: number) {
  return createMiddleware(async (_context, next) => {
    const started = performance.now()
    await next()
    const left = floorMs - (performance.now() - started)
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
  })
}

/** better-auth's bare 'Invalid origin' becomes a text that says which address to use. */
async function explainUntrustedOrigin(response: Response, productOrigin: string) {
  if (response.status !== 403) return response
  const text = await response.clone().text()
  if (!/invalid origin/i.test(text)) return response
  return Response.json({ error: untrustedOriginMessage(productOrigin) }, { status: 403 })
}

/** Signing in or up changes no existing session or membership; every other write may. */
function changesAuthState(method: string, path: string): boolean {
  if (method === 'GET') return /verify|callback/.test(path)
  return !/^\/api\/auth\/sign-(in|up)\//.test(path)
}
