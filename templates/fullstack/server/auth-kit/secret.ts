import { randomBytes } from 'node:crypto'
import { db } from '../db.ts'

/**
 * The key that signs session cookies and e-mailed links: BETTER_AUTH_SECRET when set, otherwise
 * a random one made on first use and kept in the app's database, so sessions survive restarts
 * and redeploys without any setup.
 */
export function authSecret(): string {
  if (process.env.BETTER_AUTH_SECRET) return process.env.BETTER_AUTH_SECRET
  db.prepare('INSERT OR IGNORE INTO auth_secret (id, value) VALUES (1, ?)').run(
    randomBytes(32).toString('base64url'),
  )
  const row = db.prepare('SELECT value FROM auth_secret WHERE id = 1').get() as { value: string }
  return row.value
}
