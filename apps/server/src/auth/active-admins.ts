import type { Database } from '@sprout/db/database.ts'
import { user } from '@sprout/db/schema/auth.ts'
import { and, inArray, isNull, like, or, sql } from 'drizzle-orm'
import type { Config } from '../config/config.ts'
import { isPlatformAdmin } from './require-session.ts'

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/**
 * The ids of the admins who are not banned (role admin or listed in ADMIN_EMAILS), their rows
 * locked until the transaction ends: two admins demoting each other at once cannot leave none.
 */
export async function lockActiveAdmins(
  transaction: Transaction,
  config: Pick<Config, 'adminEmails'>,
): Promise<string[]> {
  const listed =
    config.adminEmails.length > 0
      ? inArray(sql`lower(${user.email})`, config.adminEmails)
      : undefined
  const rows = await transaction
    .select({ id: user.id, email: user.email, role: user.role, banned: user.banned })
    .from(user)
    .where(
      and(
        or(isNull(user.banned), sql`${user.banned} = false`),
        or(like(user.role, '%admin%'), listed),
      ),
    )
    .for('update')
  return rows.filter((row) => isPlatformAdmin(row, config)).map((row) => row.id)
}
