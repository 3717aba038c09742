import type { Database } from '@sprout/db/database.ts'
import { idText } from '@sprout/protocol/api/input-limits.ts'
import { Hono } from 'hono'
import { z } from 'zod'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import { badRequest } from '../http/app-error.ts'
import { parseQuery } from '../http/parse-request.ts'
import { findOwningOrganization, findPersonalOrganization, lookupOrganization } from './service.ts'

const lookupQuery = z.object({
  clerk_id: idText().optional(),
  is_personal: z.enum(['true', 'false']).optional(),
  application_id: idText().optional(),
  exploration_id: idText().optional(),
})

export function organizationRoutes(db: Database, memberships: MembershipCache) {
  return new Hono<AppEnv>().get('/api/organizations', async (context) => {
    const query = parseQuery(context, lookupQuery)
    // context.get(): context.var copies every variable into a new object on each access.
    const lookup = { db, userId: context.get('user').id, memberships }
    if (query.clerk_id) return context.json(await lookupOrganization(lookup, query.clerk_id))
    if (query.is_personal === 'true') {
      const personal = await findPersonalOrganization(lookup)
      return context.json({ id: personal.id })
    }
    if (query.application_id || query.exploration_id) {
      const owner = query.application_id
        ? { kind: 'application' as const, id: query.application_id }
        : { kind: 'exploration' as const, id: query.exploration_id ?? '' }
      return context.json(await findOwningOrganization(lookup, owner))
    }
    throw badRequest(
      'Missing query parameter "clerk_id" (or "is_personal=true", "application_id", "exploration_id")',
    )
  })
}
