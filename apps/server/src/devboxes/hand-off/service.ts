import { createHash, randomBytes } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { devboxAuthTokens } from '@sprout/db/schema/devbox-auth-tokens.ts'
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import { findApplicationBySlug } from '../../applications/service.ts'
import type { MembershipCache } from '../../auth/auth-cache.ts'
import { badRequest, notFound } from '../../http/app-error.ts'
import type { Origins } from '../../http/origins.ts'
import { findMembership } from '../../organizations/service.ts'

export const DEVBOX_TOKEN_LIFETIME_MS = 60_000

type Context = { db: Database; userId: string; memberships: MembershipCache; origins: Origins }

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** The application whose preview origin `devboxUrl` names, if the caller may see it. */
async function applicationForPreviewUrl(context: Context, devboxUrl: string) {
  let url: URL
  try {
    url = new URL(devboxUrl)
  } catch {
    throw badRequest('Invalid authentication request: missing devbox URL')
  }
  const slug = context.origins.slugOf(url.host)
  if (!slug || context.origins.preview(slug) !== url.origin) throw notFound('Application not found')
  const application = await findApplicationBySlug(context.db, slug)
  if (!application) throw notFound('Application not found')
  const membership = await findMembership(context, application.organizationId)
  if (!membership) throw notFound('Application not found')
  return application
}

/** A single-use token, bound to the caller and the application, valid for 60 s. */
export async function issueDevboxToken(context: Context, devboxUrl: string): Promise<string> {
  const application = await applicationForPreviewUrl(context, devboxUrl)
  const token = randomBytes(32).toString('base64url')
  await context.db
    .delete(devboxAuthTokens)
    .where(lt(devboxAuthTokens.expiresAt, new Date(Date.now() - DEVBOX_TOKEN_LIFETIME_MS)))
  await context.db.insert(devboxAuthTokens).values({
    tokenHash: hashToken(token),
    userId: context.userId,
    applicationId: application.id,
    expiresAt: new Date(Date.now() + DEVBOX_TOKEN_LIFETIME_MS),
  })
  return token
}

/** Uses a token up (atomically: a second redemption finds it used) for the app of `slug`. */
export async function redeemDevboxToken(db: Database, token: string, slug: string) {
  const used = await db
    .update(devboxAuthTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(devboxAuthTokens.tokenHash, hashToken(token)),
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
