import type { Database } from '@sprout/db/database.ts'
import { member, organization, session, user } from '@sprout/db/schema/auth.ts'
import {
  ADMIN_USERS_PAGE_SIZE,
  type AdminUser,
  type AdminUserSort,
} from '@sprout/protocol/api/admin-users.ts'
import { asc, count, desc, eq, ilike, inArray, max, or, type SQL, sql } from 'drizzle-orm'
import { isPlatformAdmin } from '../../auth/require-session.ts'
import type { Config } from '../../config/config.ts'

type UserRow = {
  id: string
  name: string
  email: string
  role: string | null
  banned: boolean | null
  banReason: string | null
  createdAt: Date
}

const userColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  banned: user.banned,
  banReason: user.banReason,
  createdAt: user.createdAt,
}

/** Name or email containing the text, any case; `%`, `_` and `\` match themselves. */
function searchFilter(query: string): SQL | undefined {
  if (query === '') return undefined
  const pattern = `%${query.replace(/[\\%_]/g, '\\$&')}%`
  return or(ilike(user.name, pattern), ilike(user.email, pattern))
}

/** One page of the installation's users, newest first or by name, and how many match. */
export async function listUserPage(
  db: Database,
  config: Pick<Config, 'adminEmails'>,
  input: { query: string; page: number; sort: AdminUserSort },
): Promise<{ users: AdminUser[]; total: number }> {
  const filter = searchFilter(input.query)
  const order =
    input.sort === 'name'
      ? [asc(sql`lower(${user.name})`), asc(user.id)]
      : [desc(user.createdAt), desc(user.id)]
  const offset = (input.page - 1) * ADMIN_USERS_PAGE_SIZE
  if (!filter) {
    // Counting every user is cheap, and the page alone sorts only the rows it needs
    // (bench/admin-users.ts, docs/performance.md "Admin users").
    const rows = await db
      .select(userColumns)
      .from(user)
      .orderBy(...order)
      .limit(ADMIN_USERS_PAGE_SIZE)
      .offset(offset)
    const [counted] = await db.select({ total: count() }).from(user)
    return { users: await presentUsers(db, config, rows), total: counted?.total ?? 0 }
  }
  // A search scans every row once for the page and its count; only a page past the end asks again.
  const rows = await db
    .select({ ...userColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(user)
    .where(filter)
    .orderBy(...order)
    .limit(ADMIN_USERS_PAGE_SIZE)
    .offset(offset)
  let total = rows[0]?.total ?? 0
  if (rows.length === 0 && input.page > 1) {
    const [counted] = await db.select({ total: count() }).from(user).where(filter)
    total = counted?.total ?? 0
  }
  return { users: await presentUsers(db, config, rows), total }
}

/** One user as the Users tab shows them, or undefined. */
export async function findAdminUser(
  db: Database,
  config: Pick<Config, 'adminEmails'>,
  userId: string,
): Promise<AdminUser | undefined> {
  const rows = await db.select(userColumns).from(user).where(eq(user.id, userId))
  const [found] = await presentUsers(db, config, rows)
  return found
}

/** Adds each user's organizations and last activity: two queries for the whole page. */
async function presentUsers(
  db: Database,
  config: Pick<Config, 'adminEmails'>,
  rows: UserRow[],
): Promise<AdminUser[]> {
  if (rows.length === 0) return []
  const ids = rows.map((row) => row.id)
  const memberships = await db
    .select({
      userId: member.userId,
      name: organization.name,
      isPersonal: organization.isPersonal,
    })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(inArray(member.userId, ids))
    .orderBy(desc(organization.isPersonal), asc(organization.name))
  const activity = await db
    .select({ userId: session.userId, lastSeenAt: max(session.updatedAt) })
    .from(session)
    .where(inArray(session.userId, ids))
    .groupBy(session.userId)
  const organizationsOf = new Map<string, string[]>()
  for (const membership of memberships) {
    const names = organizationsOf.get(membership.userId) ?? []
    names.push(membership.isPersonal ? 'Personal' : membership.name)
    organizationsOf.set(membership.userId, names)
  }
  const lastSeenOf = new Map(activity.map((row) => [row.userId, row.lastSeenAt]))
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: isPlatformAdmin({ role: row.role, email: '' }, { adminEmails: [] }) ? 'admin' : 'user',
    isAdmin: isPlatformAdmin(row, config),
    banned: row.banned === true,
    banReason: row.banned === true ? row.banReason : null,
    organizations: organizationsOf.get(row.id) ?? [],
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: lastSeenOf.get(row.id)?.toISOString() ?? null,
  }))
}
