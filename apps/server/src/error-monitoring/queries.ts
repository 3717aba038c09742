import { applications } from '@sprout/db/schema/applications.ts'
import { errorGroups } from '@sprout/db/schema/error-groups.ts'
import { errorInstances } from '@sprout/db/schema/error-instances.ts'
import type {
  ErrorGroup,
  ErrorGroupList,
  ErrorGroupStatus,
  ErrorGroupsQuery,
  ErrorInstance,
  ErrorSource,
  ErrorStats,
} from '@sprout/protocol/api/error-monitoring.ts'
import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import { badRequest, notFound } from '../http/app-error.ts'
import type { RequestContext } from '../http/request-context.ts'

const groupColumns = {
  group: errorGroups,
  applicationName: applications.name,
}
type GroupRow = { group: typeof errorGroups.$inferSelect; applicationName: string }

function present({ group, applicationName }: GroupRow): ErrorGroup {
  return {
    id: group.id,
    application_id: group.applicationId,
    application_name: applicationName,
    error_type: group.errorType,
    representative_message: group.representativeMessage,
    representative_stack: group.representativeStack,
    occurrence_count: Number(group.occurrenceCount),
    first_seen_at: group.firstSeenAt.toISOString(),
    last_seen_at: group.lastSeenAt.toISOString(),
    status: group.status as ErrorGroupStatus,
    source: group.source as ErrorSource,
    last_url: group.lastUrl,
  }
}

const inOrganization = (context: RequestContext) =>
  eq(applications.organizationId, context.organization.id)

function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[]
    const date = new Date(String(at))
    if (typeof id === 'string' && !Number.isNaN(date.getTime())) return { at: date, id }
  } catch {}
  throw badRequest('Invalid query parameter "cursor": pass the next_cursor of a previous page')
}

const encodeCursor = (group: ErrorGroup) =>
  Buffer.from(JSON.stringify([group.last_seen_at, group.id])).toString('base64url')

/** The organization's groups, most recently seen first, a page at a time. */
export async function listErrorGroups(
  context: RequestContext,
  query: ErrorGroupsQuery,
): Promise<ErrorGroupList> {
  const conditions: SQL[] = [inOrganization(context)]
  if (query.status) conditions.push(eq(errorGroups.status, query.status))
  if (query.application_id) conditions.push(eq(errorGroups.applicationId, query.application_id))
  if (query.cursor) {
    const { at, id } = decodeCursor(query.cursor)
    conditions.push(sql`(${errorGroups.lastSeenAt}, ${errorGroups.id}) < (${at}, ${id})`)
  }
  const rows = await context.db
    .select(groupColumns)
    .from(errorGroups)
    .innerJoin(applications, eq(applications.id, errorGroups.applicationId))
    .where(and(...conditions))
    .orderBy(desc(errorGroups.lastSeenAt), desc(errorGroups.id))
    .limit(query.limit + 1)
  const groups = rows.slice(0, query.limit).map(present)
  const last = groups.at(-1)
  return { groups, next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null }
}

/** One group of the caller's organization (and of `applicationId` when given), or a 404. */
export async function findErrorGroup(
  context: RequestContext,
  groupId: string,
  applicationId?: string,
): Promise<ErrorGroup> {
  const conditions = [inOrganization(context), eq(errorGroups.id, groupId)]
  if (applicationId) conditions.push(eq(errorGroups.applicationId, applicationId))
  const rows = await context.db
    .select(groupColumns)
    .from(errorGroups)
    .innerJoin(applications, eq(applications.id, errorGroups.applicationId))
    .where(and(...conditions))
    .limit(1)
  const row = rows[0]
  if (!row) throw notFound('Error group not found')
  return present(row)
}

/** A group's newest occurrences (at most the 100 kept). */
export async function listErrorInstances(
  context: RequestContext,
  groupId: string,
  limit: number,
  applicationId?: string,
): Promise<{ errors: ErrorInstance[] }> {
  const group = await findErrorGroup(context, groupId, applicationId)
  const rows = await context.db
    .select()
    .from(errorInstances)
    .where(eq(errorInstances.groupId, group.id))
    .orderBy(desc(errorInstances.occurredAt), desc(errorInstances.id))
    .limit(limit)
  return {
    errors: rows.map((row) => ({
      id: row.id,
      source: row.source as ErrorSource,
      occurred_at: row.occurredAt.toISOString(),
      context: row.context,
      session_data: row.sessionData,
      stack: row.stack,
    })),
  }
}

/** docs/product/error-monitoring.md "Error group status": any status to any other. */
export async function updateErrorGroupStatus(
  context: RequestContext,
  groupId: string,
  status: ErrorGroupStatus,
  applicationId?: string,
): Promise<ErrorGroup> {
  const group = await findErrorGroup(context, groupId, applicationId)
  await context.db.update(errorGroups).set({ status }).where(eq(errorGroups.id, group.id))
  return { ...group, status }
}

/** Groups per status and every occurrence counted, for the organization or one application. */
export async function errorStats(
  context: RequestContext,
  applicationId?: string,
): Promise<ErrorStats> {
  const conditions = [inOrganization(context)]
  if (applicationId) conditions.push(eq(errorGroups.applicationId, applicationId))
  const rows = await context.db
    .select({
      status: errorGroups.status,
      groups: sql<string>`count(*)`,
      occurrences: sql<string>`coalesce(sum(${errorGroups.occurrenceCount}), 0)`,
    })
    .from(errorGroups)
    .innerJoin(applications, eq(applications.id, errorGroups.applicationId))
    .where(and(...conditions))
    .groupBy(errorGroups.status)
  const stats: ErrorStats = { active: 0, resolved: 0, ignored: 0, total_occurrences: 0 }
  for (const row of rows) {
    if (row.status === 'active' || row.status === 'resolved' || row.status === 'ignored') {
      stats[row.status] = Number(row.groups)
    }
    stats.total_occurrences += Number(row.occurrences)
  }
  return stats
}
