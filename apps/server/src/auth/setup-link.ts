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

  const spend = async (hash?: string) => {
    const table = schema.installationSettings
    const rows = await db
      .delete(table)
      .where(
        hash === undefined
          ? eq(table.key, settingKey)
          : and(eq(table.key, settingKey), sql`${table.value}->>'hash' = ${hash}`),
      )
      .returning({ key: table.key })
    return rows.length
  }

  return {
    hasAdmin,
    isValid,
    /** At start: a fresh code while there is no admin (its URL to print), else none. */
    prepare: async (publicUrl: string): Promise<string | undefined> => {
      if (await hasAdmin()) {
        await spend()
        return undefined
      }
      const code = randomBytes(24).toString('base64url')
      await settings.set(settingKey, { hash: hashOf(code).toString('base64') })
      return `${publicUrl}/setup?code=${code}`
    },
    /** Makes `userId` the admin; the code is spent. Returns the refusal's text, if any. */
    claim: async (userId: string, code: string): Promise<string | undefined> => {
      if (await hasAdmin()) return setupLinkTexts.adminExists
      if (!(await isValid(code))) return setupLinkTexts.invalid
      // Spent before the role is given: of two claims at once, one deletes the row, one finds none.
      const spent = await spend(hashOf(code).toString('base64'))
      if (spent === 0) return setupLinkTexts.invalid
      await db.update(schema.user).set({ role: 'admin' }).where(eq(schema.user.id, userId))
      return undefined
    },
  }
}

export type SetupLink = ReturnType<typeof createSetupLink>
