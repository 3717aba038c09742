import type { Database } from '@sprout/db/database.ts'
import { updateCheckSettingsSchema } from '@sprout/protocol/api/checks.ts'
import { idText } from '@sprout/protocol/api/input-limits.ts'
import { Hono } from 'hono'
import { z } from 'zod'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import { forbidden, notFound } from '../http/app-error.ts'
import { parseJsonBody, parseValue } from '../http/parse-request.ts'
import { readCheckSettings, writeCheckSettings } from './check-settings.ts'
import { findMembership } from './service.ts'

const organizationParams = z.object({ organizationId: idText() })
const path = '/api/organizations/:organizationId/check-settings'

/** docs/product/checks.md "Setting": members read it, owners and admins change it. */
export function checkSettingsRoutes(input: {
  db: Database
  memberships: MembershipCache
  installationAllows: boolean
}) {
  const { db, memberships, installationAllows } = input
  const membershipOf = async (userId: string, organizationId: string) => {
    const membership = await findMembership({ db, userId, memberships }, organizationId)
    if (!membership) throw notFound('Organization not found')
    return membership
  }
  return new Hono<AppEnv>()
    .get(path, async (context) => {
      const { organizationId } = parseValue(organizationParams, context.req.param())
      await membershipOf(context.get('user').id, organizationId)
      return context.json(await readCheckSettings(db, organizationId, installationAllows))
    })
    .put(path, async (context) => {
      const { organizationId } = parseValue(organizationParams, context.req.param())
      const membership = await membershipOf(context.get('user').id, organizationId)
      if (membership.role !== 'owner' && membership.role !== 'admin') {
        throw forbidden('Only owners and admins can change this setting.')
      }
      const body = await parseJsonBody(context, updateCheckSettingsSchema)
      await writeCheckSettings(db, organizationId, body.autoRepair)
      return context.json(await readCheckSettings(db, organizationId, installationAllows))
    })
}
