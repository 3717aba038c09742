import { createHash, randomBytes } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { devboxAuthTokens } from '@sprout/db/schema/devbox-auth-tokens.ts'
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import { findApplicationBySlug } from '../../applications/service.ts'
import type { MembershipCache } from '../../auth/auth-cache.ts'
import { badRequest, notFound } from '../../http/app-error.ts'
import type { Origins } from '../../http/origins.ts'
import { findMembership } from '../../organizations/service.ts'
import type { SessionHost } from './preview-session.ts'

export const DEVBOX_TOKEN_LIFETIME_MS = 60_000

type Context = { db: Database; userId: string; memberships: MembershipCache; origins: Origins }

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * The application whose preview or apps origin `devboxUrl` names, and which host it is. A preview
 * only for a member; a deploy for anyone signed in, because the apps host decides who may open
 * it on every request (decision 046) and the token only says who is asking.
 */
async function applicationForHostUrl(context: Context, devboxUrl: string) {
  let url: URL
  try {
    url = new URL(devboxUrl)
  } catch {
    throw badRequest('Invalid authentication request: missing devbox URL')
  }
  const slug = context.origins.slugOf(url.host)
  const host =
    slug && context.origins.preview(slug) === url.origin
      ? ('preview' as const)
      : slug && context.origins.apps(slug) === url.origin
        ? ('app' as const)
        : undefined
  if (!slug || !host) throw notFound('Application not found')
  const application = await findApplicationBySlug(context.db, slug)
  if (!application) throw notFound('Application not found')
  if (host === 'app') return { application, host }
  const membership = await findMembership(context, application.organizationId)
  if (!membership) throw notFound('Application not found')
  return { application, host }
}

/** A single-use token, bound to the caller, the application and its host, valid for 60 s. */
export async function issueDevboxToken(context: Context, devboxUrl: string): Promise<string> {
  const { application, host } = await applicationForHostUrl(context, devboxUrl)
  const token = randomBytes(32).toString('base64url')
  await context.db
    .delete(devboxAuthTokens)
    .where(lt(devboxAuthTokens.expiresAt, new Date(Date.now() - DEVBOX_TOKEN_LIFETIME_MS)))
  await context.db.insert(devboxAuthTokens).values({
    tokenHash: hashToken(token),
    userId: context.userId,
    applicationId: application.id,
    host,
    expiresAt: new Date(Date.now() + DEVBOX_TOKEN_LIFETIME_MS),
  })
  return token
}

/**
 * Uses a token up (atomically: a second redemption finds it used) for the app of `slug` on
 * `host`; a token issued for the other host of the same app is refused.
 */
export async function redeemDevboxToken(
  db: Database,
  token: string,
  slug: string,
  host: SessionHost = 'preview',
) {
  const used = await db
    .update(devboxAuthTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(devboxAuthTokens.tokenHash, hashToken(token)),
        eq(devboxAuthTokens.host, host),
        isNull(devboxAuthTokens.usedAt),
        gt(devboxAuthTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: devboxAuthTokens.userId, applicationId: devboxAuthTokens.applicationId })
  const redeemed = used[0]
  if (!redeemed) return undefined
  const application = await findApplicationBySlug(db, slug)
  return application?.id === redeemed.applicationId ? redeemed : undefined
}
