/** The app's users as the owner manages them: who they are and their roles. */
import { db } from '../db.ts'
import { type AppRole, toAppRole } from './roles.ts'

export type ListedAppUser = { id: string; name: string; email: string; role: AppRole }

/** The first account made becomes the owner; everyone after it is a member. */
export function roleOfNewUser(): AppRole {
  const row = db.prepare('SELECT EXISTS (SELECT 1 FROM auth_user) AS taken').get() as {
    taken: number
  }
  return row.taken ? 'member' : 'owner'
}

export function listAppUsers(): ListedAppUser[] {
  const rows = db
    .prepare('SELECT id, name, email, role FROM auth_user ORDER BY createdAt')
    .all() as Array<Omit<ListedAppUser, 'role'> & { role: string }>
  return rows.map((row) => ({ ...row, role: toAppRole(row.role) }))
}

/** Makes a user an admin or a member again; the owner's own role never changes. */
export function setAppUserRole(input: {
  userId: string
  role: 'admin' | 'member'
}): 'changed' | 'no-such-user' | 'is-owner' {
  const row = db.prepare('SELECT role FROM auth_user WHERE id = ?').get(input.userId) as
    | { role: string }
    | undefined
  if (!row) return 'no-such-user'
  if (row.role === 'owner') return 'is-owner'
  db.prepare('UPDATE auth_user SET role = ?, updatedAt = ? WHERE id = ?').run(
    input.role,
    new Date().toISOString(),
    input.userId,
  )
  return 'changed'
}
