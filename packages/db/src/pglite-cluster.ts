// Imports nothing heavy at the top: main.ts loads this first, to start a copy early.
import { execFile } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const runFile = promisify(execFile)
/** The SQL migrations (drizzle-kit's journal and files), applied to the cached cluster too. */
export const migrationsFolder = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'migrations',
)

/** The installed PGlite's package folder. */
const pgliteDirectory = () =>
  path.dirname(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')))

/**
 * Where ready-made clusters are kept: `node_modules/.cache/sprout-pglite`, beside the PGlite that
 * made them, so a reinstall starts afresh.
 */
export function defaultClusterCacheDir(): string {
  return path.resolve(pgliteDirectory(), '../../.cache/sprout-pglite')
}

/** PGlite's version: a cluster is only valid for the PostgreSQL build that created it. */
function pgliteVersion(): string {
  const packageJson = path.join(pgliteDirectory(), 'package.json')
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
}

/**
 * PGlite's buffer cache is the server's own resident memory: the default 128 MB shared_buffers was
 * most of an idle server (docs/performance.md "2026-11-26 · listeners, memory and start"). Other
 * pages come from OS-cached files; 16 MB holds the hot rows many times over.
 */
export async function pgliteStartParams(): Promise<string[]> {
  const { PGlite } = await import('@electric-sql/pglite')
  return [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB']
}

const isCluster = (directory: string) => existsSync(path.join(directory, 'PG_VERSION'))

/** A name beside `target` that no other process (or call) uses. */
const stagingFor = (target: string) =>
  `${target}.staging-${process.pid}-${randomUUID().slice(0, 8)}`

/**
 * Moves a finished `staging` folder to `target` in one step; when another process got there
 * first, keeps theirs and removes ours. rename(2) replaces an empty `target` folder.
 */
async function publish(staging: string, target: string): Promise<void> {
  try {
    await rename(staging, target)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error
    await rm(staging, { recursive: true, force: true })
  }
}

/** The migrations' contents, in short: a cached cluster holds exactly these. */
function migrationsKey(): string {
  const hash = createHash('sha256')
  for (const name of readdirSync(migrationsFolder).sort()) {
    if (name.endsWith('.sql'))
      hash.update(name).update(readFileSync(path.join(migrationsFolder, name)))
  }
  hash.update(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json')))
  return hash.digest('hex').slice(0, 12)
}

/**
 * The cache's cluster for this PGlite and these migrations, created when missing: initdb and
 * every migration, then closed (a shutdown checkpoint, so copies need no recovery). A new data
 * directory then starts with its schema in place: migrateDatabase finds nothing to apply.
 */
async function templateCluster(cacheDir: string): Promise<string> {
  const template = path.join(cacheDir, `cluster-${pgliteVersion()}-${migrationsKey()}`)
  if (isCluster(template)) return template
  await mkdir(cacheDir, { recursive: true })
  const staging = stagingFor(template)
  try {
    const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ])
    const creator = new PGlite(staging, { startParams: await pgliteStartParams() })
    await migrate(drizzle({ client: creator }), { migrationsFolder })
    await creator.close()
    await publish(staging, template)
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
  return template
}

/**
 * Copies a folder with the system's `cp -R`, a process of its own, so the server's thread does
 * other work meanwhile (node's fs.cp took two to three times as long, much of it on the thread);
 * node's copy where there is no `cp`.
 */
async function copyFolder(from: string, to: string): Promise<void> {
  try {
    await runFile('cp', ['-R', from, to])
  } catch {
    await rm(to, { recursive: true, force: true })
    await cp(from, to, { recursive: true })
  }
}

/** Where a server keeps PGlite in its DATA_DIR. */
export const pgliteDataDirIn = (dataDir: string) => path.resolve(dataDir, 'pglite')

/** Preparations under way, by data directory: a second call waits for the first. */
const preparing = new Map<string, Promise<boolean>>()

/**
 * Seeds an empty data directory from a cached, migrated cluster instead of initdb and every
 * migration (~3 s, 500 MB held; docs/architecture/overview.md "Data"). Copied beside and renamed
 * in, so a killed start leaves no half cluster. Returns whether it copied.
 */
export function prepareClusterFromCache(
  dataDir: string,
  cacheDir = defaultClusterCacheDir(),
): Promise<boolean> {
  const key = path.resolve(dataDir)
  const running = preparing.get(key)
  if (running) return running
  const prepared = copyCachedCluster(key, cacheDir).finally(() => preparing.delete(key))
  preparing.set(key, prepared)
  return prepared
}

async function copyCachedCluster(dataDir: string, cacheDir: string): Promise<boolean> {
  if (isCluster(dataDir)) return false
  const entries = await readdir(dataDir).catch(() => [])
  if (entries.length > 0) return false
  let template: string
  try {
    template = await templateCluster(cacheDir)
  } catch (error) {
    console.warn(
      `[db] no cached PGlite cluster in ${cacheDir} (${(error as Error).message}); creating one in the data directory`,
    )
    return false
  }
  await mkdir(path.dirname(dataDir), { recursive: true })
  const staging = stagingFor(dataDir)
  try {
    await copyFolder(template, staging)
    await publish(staging, dataDir)
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
  return true
}
