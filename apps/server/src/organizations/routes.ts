import type { Database } from '@sprout/db/database.ts'
import { idText } from '@sprout/protocol/api/input-limits.ts'
import { Hono } from 'hono'
import { z } from 'zod'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import { badRequest } from '../http/app-error.ts'
import { parseQuery } from '../http/parse-request.ts'
import { findPersonalOrganization, lookupOrganization } from './service.ts'

const lookupQuery = z.object({
  clerk_id: idText().optional(),
  is_personal: z.enum(['true', 'false']).optional(),
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
    throw badRequest('Missing query parameter "clerk_id" (or "is_personal=true")')
  })
}
