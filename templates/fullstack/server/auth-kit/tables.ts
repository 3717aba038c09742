/**
 * The auth kit's tables (auth_user, auth_session, auth_account, auth_verification, auth_secret),
 * made on first use from tables.sql rather than by server/migrations/, which every app runs:
 * an app that never imports the kit has none of them.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { db } from '../db.ts'

export function createAuthTables() {
  db.exec(readTablesSql())
}

/** Bundled as text by Vite; a script run with plain Node reads the file instead. */
function readTablesSql(): string {
  try {
    const [sql] = Object.values(
      import.meta.glob<string>('./tables.sql', { query: '?raw', import: 'default', eager: true }),
    )
    if (sql) return sql
  } catch {
    // Not under Vite.
  }
  return readFileSync(path.join(import.meta.dirname, 'tables.sql'), 'utf8')
}
