/**
 * The app's database: SQLite, built into Node (node:sqlite), in one file.
 *
 * DATABASE_URL says where the file is (`file:/absolute/path/app.db`); Sprout sets it to a folder
 * outside the source code, so the data survives edits and restarts but never lands in git or in
 * a build. Outside Sprout it defaults to ./.data/app.db.
 *
 * Tables are made by migrations: every server/migrations/*.sql file is applied once, in file-name
 * order, and recorded in the `_migrations` table. To add or change a table, add a new file with
 * the next number (e.g. 002_add_tags.sql); never edit a migration that has already run.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'

export const databasePath = path.resolve(
  process.env.DATABASE_URL?.replace(/^file:/, '') || '.data/app.db',
)

mkdirSync(path.dirname(databasePath), { recursive: true })

export const db = new DatabaseSync(databasePath)
// WAL lets reads go on while a write is under way, and with synchronous = NORMAL a write does not
// wait for the disk (a crash of the app loses nothing; a power cut may lose the last writes).
// The busy timeout waits for a lock instead of failing when two processes write at once.
db.exec('PRAGMA journal_mode = WAL')
db.exec('PRAGMA synchronous = NORMAL')
db.exec('PRAGMA busy_timeout = 5000')
db.exec('PRAGMA foreign_keys = ON')

migrate()

/**
 * The migrations by file name. Vite bundles them into the build as text, so the production server
 * needs no migrations folder; a script run with plain Node (`node scripts/seed.ts`) reads them
 * from the folder instead.
 */
function readMigrations(): Record<string, string> {
  try {
    return import.meta.glob<string>('./migrations/*.sql', {
      query: '?raw',
      import: 'default',
      eager: true,
    })
  } catch {
    const folder = path.join(import.meta.dirname, 'migrations')
    const names = readdirSync(folder).filter((name) => name.endsWith('.sql'))
    return Object.fromEntries(
      names.map((name) => [name, readFileSync(path.join(folder, name), 'utf8')]),
    )
  }
}

function migrate() {
  db.exec(`CREATE TABLE IF NOT EXISTS _migrations (
    name TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL DEFAULT (datetime('now'))
  )`)
  const applied = new Set(
    db
      .prepare('SELECT name FROM _migrations')
      .all()
      .map((row) => String(row.name)),
  )
  const migrations = Object.entries(readMigrations()).map(([file, sql]) => ({
    name: path.basename(file),
    sql,
  }))
  for (const { name, sql } of migrations.sort((a, b) => a.name.localeCompare(b.name))) {
    if (applied.has(name)) continue
    db.exec('BEGIN')
    try {
      db.exec(sql)
      db.prepare('INSERT INTO _migrations (name) VALUES (?)').run(name)
      db.exec('COMMIT')
    } catch (error) {
      db.exec('ROLLBACK')
      throw new Error(`Migration ${name} failed: ${(error as Error).message}`, { cause: error })
    }
  }
}
