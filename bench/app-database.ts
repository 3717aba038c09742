// The app database options of decision 014: idle RSS and timings of a tiny Node process with
// node:sqlite (as templates/fullstack/server/db.ts opens it) or PGlite, and a bare one.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { quantile } from './lib/stats.ts'

const run = promisify(execFile)
const rounds = 3

const openers: Record<string, string> = {
  'bare Node': '',
  'node:sqlite': `
    const { DatabaseSync } = await import('node:sqlite')
    const db = new DatabaseSync(directory + '/app.db')
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA synchronous = NORMAL')
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)')
    opened = performance.now()
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)')
    for (let index = 0; index < 1000; index++) insert.run('note ' + index)
    db.prepare('SELECT count(*) FROM notes').get()`,
  PGlite: `
    const { PGlite } = await import('@electric-sql/pglite')
    const db = await PGlite.create(directory + '/pgdata')
    await db.exec('CREATE TABLE notes (id SERIAL PRIMARY KEY, text TEXT NOT NULL)')
    opened = performance.now()
    for (let index = 0; index < 1000; index++) await db.query('INSERT INTO notes (text) VALUES ($1)', ['note ' + index])
    await db.query('SELECT count(*) FROM notes')`,
}

/** One process: opens a new database, writes, idles 2 s after a GC; RSS and timings. */
async function measure(opener: string) {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-appdb-'))
  const script = `
    const directory = ${JSON.stringify(directory)}
    const started = performance.now()
    let opened = started
    ${opener}
    const openMs = opened - started
    const writeMs = performance.now() - opened
    globalThis.gc()
    await new Promise((resolve) => setTimeout(resolve, 2000))
    console.log(JSON.stringify({ rss: process.memoryUsage().rss, openMs, writeMs }))`
  try {
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--input-type=module', '-e', script],
      { cwd: path.resolve(import.meta.dirname, '..') },
    )
    return JSON.parse(stdout) as { rss: number; openMs: number; writeMs: number }
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}

export async function benchAppDatabase(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {}
  for (const [name, opener] of Object.entries(openers)) {
    const results = []
    for (let round = 0; round < rounds; round++) results.push(await measure(opener))
    const rss = quantile(
      results.map((result) => result.rss / 1024 / 1024),
      0.5,
    )
    const openMs = quantile(
      results.map((result) => result.openMs),
      0.5,
    )
    const writeMs = quantile(
      results.map((result) => result.writeMs),
      0.5,
    )
    figures[`${name}: idle RSS / open a new database / 1,000 inserts (median of ${rounds})`] =
      `${rss.toFixed(0)} MiB / ${openMs.toFixed(0)} ms / ${writeMs.toFixed(0)} ms`
  }
  return figures
}
