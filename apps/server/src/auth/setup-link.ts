import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import { and, eq, sql } from 'drizzle-orm'
import type { InstallationSettings } from '../settings/installation-settings.ts'

/**
 * The one-time setup link of an installation without an admin (docs/product/auth.md "The first
 * admin"): printed by each start, only its hash is stored, and it is void once an admin exists.
 */
const settingKey = 'setup-code'

export const setupLinkTexts = {
  invalid: 'This setup link is not valid. Use the link from the most recent start of the server.',
  adminExists: 'This installation already has an admin. Ask them for access.',
}

const hashOf = (code: string) => createHash('sha256').update(code).digest()

export function createSetupLink(options: { db: Database; settings: InstallationSettings }) {
  const { db, settings } = options

  const hasAdmin = async () => {
    const rows = await db
      .select({ id: schema.user.id })
      .from(schema.user)
      .where(eq(schema.user.role, 'admin'))
      .limit(1)
    return rows.length > 0
  }

  const isValid = async (code: string) => {
    const stored = await settings.get<{ hash: string } | null>(settingKey, null)
    if (!stored || code.length === 0 || code.length > 200) return false
    const expected = Buffer.from(stored.hash, 'base64')
    const given = hashOf(code)
    return expected.length === given.length && timingSafeEqual(expected, given)
  }

  const spend = async (hash?: string, executor: Pick<Database, 'delete'> = db) => {
    const table = schema.installationSettings
    const rows = await executor
      .delete(table)
      .where(
        hash === undefined
          ? eq(table.key, settingKey)
          : and(eq(table.key, settingKey), sql`${table.value}->>'hash' = ${hash}`),
      )
      .returning({ key: table.key })
    return rows.length
  }

  /** Why `code` makes nobody admin now, or undefined while it would. */
  const refusal = async (code: string) => {
    if (await hasAdmin()) return setupLinkTexts.adminExists
    if (!(await isValid(code))) return setupLinkTexts.invalid
    return undefined
  }

  /**
   * Spends `code` for one account: of two uses at once, one deletes the row, one finds none.
   * Returns the refusal's text, if any.
   */
  const take = async (code: string) => {
    const refused = await refusal(code)
    if (refused) return refused
    return (await spend(hashOf(code).toString('base64'))) === 1 ? undefined : setupLinkTexts.invalid
  }

  return {
    hasAdmin,
    isValid,
    refusal,
    take,
    /**
     * At start: a fresh code while there is no admin (its URL to print), else none. An admin made
     * while the code is written (an ADMIN_EMAILS sign-in, the previous start's link) is looked
     * for again after, so no link is printed once one exists.
     */
    prepare: async (publicUrl: string): Promise<string | undefined> => {
      if (await hasAdmin()) {
        await spend()
        return undefined
      }
      const code = randomBytes(24).toString('base64url')
      await settings.set(settingKey, { hash: hashOf(code).toString('base64') })
      if (await hasAdmin()) {
        await spend()
        return undefined
      }
      return `${publicUrl}/setup?code=${code}`
    },
    /** Makes `userId` the admin; the code is spent. Returns the refusal's text, if any. */
    claim: async (userId: string, code: string): Promise<string | undefined> => {
      const refused = await refusal(code)
      if (refused) return refused
      // Spent with the role given, at once: of two claims one deletes the row, one finds none,
      // and a start writing a new code waits for the row and then sees the admin.
      return db.transaction(async (transaction) => {
        if ((await spend(hashOf(code).toString('base64'), transaction)) === 0) {
          return setupLinkTexts.invalid
        }
        await transaction
          .update(schema.user)
          .set({ role: 'admin' })
          .where(eq(schema.user.id, userId))
        return undefined
      })
    },
  }
}

export type SetupLink = ReturnType<typeof createSetupLink>
