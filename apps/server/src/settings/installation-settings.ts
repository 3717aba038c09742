import type { Database } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import { eq } from 'drizzle-orm'

/**
 * Settings the admin changes from the admin screen, stored one row per key; until one is stored,
 * the caller's fallback (the environment's value) applies (docs/product/admin.md).
 */
export type InstallationSettings = {
  get: <T>(key: string, fallback: T) => Promise<T>
  set: <T>(key: string, value: T) => Promise<void>
}

export function createInstallationSettings(db: Database): InstallationSettings {
  return {
    get: async (key, fallback) => {
      const [row] = await db
        .select({ value: schema.installationSettings.value })
        .from(schema.installationSettings)
        .where(eq(schema.installationSettings.key, key))
      return row === undefined ? fallback : (row.value as typeof fallback)
    },
    set: async (key, value) => {
      const now = new Date()
      await db
        .insert(schema.installationSettings)
        .values({ key, value, updatedAt: now })
        .onConflictDoUpdate({
          target: schema.installationSettings.key,
          set: { value, updatedAt: now },
        })
    },
  }
}
