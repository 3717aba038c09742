import type { Database } from '@sprout/db/database.ts'
import { createMiddleware } from 'hono/factory'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import { resolveOrganization } from './service.ts'

/** Sets `organization` for routes that act inside one; runs after requireSession. */
export function requireOrganization(db: Database, memberships: MembershipCache) {
  return createMiddleware<AppEnv>(async (context, next) => {
    const organization = await resolveOrganization(
      { db, userId: context.var.user.id, memberships },
      {
        headerOrganizationId: context.req.header('organization-id'),
        activeOrganizationId: context.var.session.activeOrganizationId,
      },
    )
    context.set('organization', organization)
    await next()
  })
}
