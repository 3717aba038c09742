import type { Database } from '@sprout/db/database.ts'
import { type AuditQuery, auditQuerySchema } from '@sprout/protocol/api/audit.ts'
import type { Context } from 'hono'
import { stream } from 'hono/streaming'
import type { AppEnv } from '../http/app-env.ts'
import { parseQuery } from '../http/parse-request.ts'
import type { AuditLog } from './audit-log.ts'
import { auditEventLines, listAuditEvents } from './audit-queries.ts'

/**
 * `GET …/audit`: a page of events as JSON, or with `format=jsonl` all of them as a JSON Lines
 * download; `organizationId` scopes an organization admin's view.
 */
export async function answerAuditQuery(
  context: Context<AppEnv>,
  input: { db: Database; audit: Pick<AuditLog, 'failedWrites'>; organizationId?: string },
) {
  const query: AuditQuery = parseQuery(context, auditQuerySchema)
  if (query.format === 'jsonl') {
    context.header('content-type', 'application/jsonl; charset=utf-8')
    context.header('content-disposition', 'attachment; filename="sprout-audit.jsonl"')
    context.header('cache-control', 'no-store')
    return stream(context, async (output) => {
      for await (const line of auditEventLines(input.db, query, input.organizationId)) {
        await output.write(line)
      }
    })
  }
  const page = await listAuditEvents(input.db, query, input.organizationId)
  return context.json({ ...page, failed_writes: input.audit.failedWrites() })
}
