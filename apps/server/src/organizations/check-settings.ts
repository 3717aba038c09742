import type { Database } from '@sprout/db/database.ts'
import { organizationCheckSettings } from '@sprout/db/schema/app-checks.ts'
import type { CheckSettingsResponse } from '@sprout/protocol/api/checks.ts'
import { eq, sql } from 'drizzle-orm'

/**
 * An organization's choice of the repair turn after a failed check (docs/product/checks.md
 * "Setting"): on unless it turned it off; `AUTO_REPAIR=off` turns it off for every organization.
 */
export async function readCheckSettings(
  db: Database,
  organizationId: string,
  installationAllows: boolean,
): Promise<CheckSettingsResponse> {
  const rows = await db
    .select({ autoRepair: organizationCheckSettings.autoRepair })
    .from(organizationCheckSettings)
    .where(eq(organizationCheckSettings.organizationId, organizationId))
    .limit(1)
  return { autoRepair: rows[0]?.autoRepair ?? true, installationAllows }
}

export async function writeCheckSettings(
  db: Database,
  organizationId: string,
  autoRepair: boolean,
): Promise<void> {
  await db
    .insert(organizationCheckSettings)
    .values({ organizationId, autoRepair })
    .onConflictDoUpdate({
      target: organizationCheckSettings.organizationId,
      set: { autoRepair, updatedAt: sql`now()` },
    })
}

/** Whether a run of this organization that found problems gets its repair turn. */
export async function repairsAutomatically(
  db: Database,
  organizationId: string,
  installationAllows: boolean,
): Promise<boolean> {
  if (!installationAllows) return false
  return (await readCheckSettings(db, organizationId, true)).autoRepair
}
