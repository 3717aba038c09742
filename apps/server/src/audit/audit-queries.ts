import type { Database } from '@sprout/db/database.ts'
import { auditEvents } from '@sprout/db/schema/audit-events.ts'
import type { AuditEvent, AuditPage, AuditQuery } from '@sprout/protocol/api/audit.ts'
import { and, desc, eq, gte, lt, or, type SQL } from 'drizzle-orm'
import { badRequest } from '../http/app-error.ts'

const defaultLimit = 50

type Row = typeof auditEvents.$inferSelect

function present(row: Row): AuditEvent {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    action: row.action as AuditEvent['action'],
    actor: { id: row.actorId, email: row.actorEmail },
    organization_id: row.organizationId,
    target: { type: row.targetType, id: row.targetId, label: row.targetLabel },
    address: row.address,
    user_agent: row.userAgent,
    details: row.details ?? null,
  }
}

/** The page after an event: its time and id, so events of the same millisecond are not skipped. */
const cursorOf = (row: Row) =>
  Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url')

function readCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[]
    const date = new Date(String(at))
    if (typeof id !== 'string' || Number.isNaN(date.getTime())) throw new Error('bad cursor')
    return { at: date, id }
  } catch {
    throw badRequest('before: not a page cursor of this log (use the `next` of a page)')
  }
}

function conditions(query: AuditQuery, organizationId: string | undefined): SQL[] {
  const where: SQL[] = []
  const organization = organizationId ?? query.organization
  if (organization) where.push(eq(auditEvents.organizationId, organization))
  if (query.actor) {
    const actor = or(
      eq(auditEvents.actorId, query.actor),
      eq(auditEvents.actorEmail, query.actor.toLowerCase()),
    )
    if (actor) where.push(actor)
  }
  if (query.action) where.push(eq(auditEvents.action, query.action))
  if (query.from) where.push(gte(auditEvents.createdAt, new Date(query.from)))
  if (query.to) where.push(lt(auditEvents.createdAt, new Date(query.to)))
  return where
}

/**
 * One page of events, newest first, matching `query`; within `organizationId` only when given
 * (an organization admin's view, whatever `query.organization` says).
 */
export async function listAuditEvents(
  db: Database,
  query: AuditQuery,
  organizationId?: string,
): Promise<AuditPage> {
  const where = conditions(query, organizationId)
  if (query.before) {
    const { at, id } = readCursor(query.before)
    const older = or(
      lt(auditEvents.createdAt, at),
      and(eq(auditEvents.createdAt, at), lt(auditEvents.id, id)),
    )
    if (older) where.push(older)
  }
  const limit = query.limit ?? defaultLimit
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(...where))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit + 1)
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return { events: page.map(present), next: rows.length > limit && last ? cursorOf(last) : null }
}

/** Every matching event as JSON Lines, page by page, newest first (the export). */
export async function* auditEventLines(
  db: Database,
  query: AuditQuery,
  organizationId?: string,
): AsyncGenerator<string> {
  let before = query.before
  for (;;) {
    const page = await listAuditEvents(db, { ...query, before, limit: 200 }, organizationId)
    for (const event of page.events) yield `${JSON.stringify(event)}\n`
    if (!page.next) return
    before = page.next
  }
}
