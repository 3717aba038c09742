import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { inArray, sql } from 'drizzle-orm'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'

/** Uses are written to the boxes' rows this often at most (a quarter of the idle time, 50 ms..5 s). */
const maxRecordMs = 5_000

const usesPerStatement = 1_000

export function recordEveryMs(idleMs: number) {
  return Math.min(maxRecordMs, Math.max(50, idleMs / 4))
}

/**
 * Writes the uses this instance saw since the last call into their boxes' `last_used_at`, so the
 * instance that runs a box sees a use made through another one
 * (docs/decisions/036-idle-stops-from-the-row.md). A use's time is the database's `now()` less its
 * age here: the instances' clocks need not agree.
 */
export async function recordLastUse(state: Pick<DevboxRuntimeState, 'db' | 'usage'>) {
  const ages = [...state.usage.takeUnrecorded()]
  // PostgreSQL takes at most 65,535 parameters in a statement: two per application.
  for (let start = 0; start < ages.length; start += usesPerStatement) {
    const uses = sql.join(
      ages
        .slice(start, start + usesPerStatement)
        .map(([applicationId, ageMs]) => sql`(${applicationId}::text, ${ageMs}::float8)`),
      sql`, `,
    )
    await state.db.execute(sql`
      update ${devboxes}
      set last_used_at = greatest(last_used_at, now() - use.age_ms * interval '1 millisecond')
      from (values ${uses}) as use(application_id, age_ms)
      where ${devboxes.applicationId} = use.application_id
    `)
  }
}

/**
 * Of the given applications, those whose row says another instance used them within the idle
 * time; measured by the database's clock, like the writes.
 */
export async function usedElsewhere(
  state: Pick<DevboxRuntimeState, 'db' | 'idleMs'>,
  applicationIds: string[],
) {
  if (applicationIds.length === 0) return new Set<string>()
  const rows = await state.db
    .select({ applicationId: devboxes.applicationId })
    .from(devboxes)
    .where(
      sql`${inArray(devboxes.applicationId, applicationIds)} and ${devboxes.lastUsedAt} > now() - ${state.idleMs}::float8 * interval '1 millisecond'`,
    )
  return new Set(rows.map((row) => row.applicationId))
}
