import type { Database } from '@sprout/db/database.ts'
import { appChecks } from '@sprout/db/schema/app-checks.ts'
import type { CheckReport, LatestCheckResponse } from '@sprout/protocol/api/checks.ts'
import { checkReportSchema } from '@sprout/protocol/api/checks.ts'
import { desc, eq } from 'drizzle-orm'

// An app's checks as stored (app_checks): the header reads the last one.

export async function storeCheck(
  db: Database,
  input: { applicationId: string; runId: string | null; report: CheckReport },
): Promise<void> {
  const { report } = input
  const finishedAt = report.finishedAt ? new Date(report.finishedAt) : null
  await db
    .insert(appChecks)
    .values({
      id: report.id,
      applicationId: input.applicationId,
      runId: input.runId,
      trigger: report.trigger,
      state: report.state,
      report,
      startedAt: new Date(report.startedAt),
      finishedAt,
    })
    .onConflictDoUpdate({
      target: appChecks.id,
      set: { state: report.state, report, finishedAt },
    })
}

export async function latestCheck(
  db: Database,
  applicationId: string,
): Promise<LatestCheckResponse['check']> {
  const [row] = await db
    .select()
    .from(appChecks)
    .where(eq(appChecks.applicationId, applicationId))
    .orderBy(desc(appChecks.startedAt))
    .limit(1)
  if (!row) return null
  const report = checkReportSchema.safeParse(row.report)
  return report.success ? { ...report.data, runId: row.runId } : null
}

/** A check a stopped process left running ends as stopped (start-server, like stale runs). */
export async function endAbandonedChecks(db: Database): Promise<void> {
  const running = await db.select().from(appChecks).where(eq(appChecks.state, 'running'))
  for (const row of running) {
    const parsed = checkReportSchema.safeParse(row.report)
    if (!parsed.success) continue
    const report: CheckReport = {
      ...parsed.data,
      state: 'interrupted',
      finishedAt: new Date().toISOString(),
      parts: parsed.data.parts.map((part) =>
        part.status === 'running' || part.status === 'pending'
          ? { ...part, status: 'skipped', note: 'The server stopped' }
          : part,
      ),
    }
    await storeCheck(db, { applicationId: row.applicationId, runId: row.runId, report })
  }
}
