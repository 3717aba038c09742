import type { Database } from '@sprout/db/database.ts'
import { Hono } from 'hono'
import { answerAuditQuery } from '../audit/audit-answer.ts'
import type { AuditLog } from '../audit/audit-log.ts'
import type { AppEnv } from '../http/app-env.ts'
import { requirePlatformAdmin } from './require-platform-admin.ts'

/** The admin's Audit tab (docs/product/audit.md): every organization's events, platform admins only. */
export function adminAuditRoutes(input: { db: Database; audit: AuditLog }) {
  return new Hono<AppEnv>().get('/api/admin/audit', requirePlatformAdmin, (context) =>
    answerAuditQuery(context, input),
  )
}
