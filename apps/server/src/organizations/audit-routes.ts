import type { Database } from '@sprout/db/database.ts'
import { Hono } from 'hono'
import { answerAuditQuery } from '../audit/audit-answer.ts'
import type { AuditLog } from '../audit/audit-log.ts'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import { forbidden } from '../http/app-error.ts'
import { requireOrganization } from './require-organization.ts'

/**
 * `GET /api/organization/audit`: the events of the request's organization, for its owners and
 * admins (docs/product/audit.md "Who sees it").
 */
export function organizationAuditRoutes(input: {
  db: Database
  memberships: MembershipCache
  audit: AuditLog
}) {
  return new Hono<AppEnv>().get(
    '/api/organization/audit',
    requireOrganization(input.db, input.memberships),
    (context) => {
      const { organization } = context.var
      if (organization.role !== 'owner' && organization.role !== 'admin') {
        throw forbidden('Only owners and admins of this organization can read its audit log.')
      }
      return answerAuditQuery(context, { ...input, organizationId: organization.id })
    },
  )
}
