import type { Database } from '@sprout/db/database.ts'
import { errorGroups } from '@sprout/db/schema/error-groups.ts'
import { and, desc, eq, gte, or } from 'drizzle-orm'

export type NewErrorGroup = {
  id: string
  errorType: string
  message: string
  stack: string[]
  regressed: boolean
}

/**
 * The application's active error groups first seen, or come back after being resolved, since
 * `since` (docs/product/checks.md "The check": the run's new errors), newest first.
 */
export async function newErrorGroups(
  db: Database,
  applicationId: string,
  since: Date,
): Promise<NewErrorGroup[]> {
  const rows = await db
    .select()
    .from(errorGroups)
    .where(
      and(
        eq(errorGroups.applicationId, applicationId),
        eq(errorGroups.status, 'active'),
        or(gte(errorGroups.firstSeenAt, since), gte(errorGroups.regressedAt, since)),
      ),
    )
    .orderBy(desc(errorGroups.lastSeenAt))
    .limit(100)
  return rows.map((row) => ({
    id: row.id,
    errorType: row.errorType,
    message: row.representativeMessage,
    stack: row.representativeStack,
    regressed: row.firstSeenAt < since,
  }))
}
