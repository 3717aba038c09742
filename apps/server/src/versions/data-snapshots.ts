import type { Database } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { markDataSnapshot, snapshottedVersions, unmarkDataSnapshots } from './version-store.ts'

/** docs/product/versions.md "Restore": the preview database of the last 20 versions is kept. */
export const KEPT_DATA_SNAPSHOTS = 20

const snapshotTimeoutSeconds = 60

/*
 * Both scripts run with node in the box (through its exec): the data folder is writable by app
 * code, so the server never opens its files with its own rights (a link there could point at
 * another app's database). Snapshots live beside the database, in its folder's .versions/.
 */
const snapshotScript = `
const { DatabaseSync } = require('node:sqlite')
const fs = require('node:fs')
const path = require('node:path')
const file = (process.env.DATABASE_URL || '').replace(/^file:/, '')
if (!file || !fs.existsSync(file)) process.exit(3)
const folder = path.join(path.dirname(file), '.versions')
fs.mkdirSync(folder, { recursive: true })
const target = path.join(folder, process.env.SPROUT_VERSION + '.db')
fs.rmSync(target, { force: true })
const db = new DatabaseSync(file)
db.exec('PRAGMA busy_timeout = 5000')
db.exec("VACUUM INTO '" + target.replaceAll("'", "''") + "'")
db.close()
for (const old of (process.env.SPROUT_DROP || '').split(',').filter(Boolean)) {
  fs.rmSync(path.join(folder, old + '.db'), { force: true })
}
`

const restoreScript = `
const fs = require('node:fs')
const path = require('node:path')
const file = (process.env.DATABASE_URL || '').replace(/^file:/, '')
if (!file) process.exit(3)
const source = path.join(path.dirname(file), '.versions', process.env.SPROUT_VERSION + '.db')
if (!fs.existsSync(source)) process.exit(4)
fs.copyFileSync(source, file + '.restoring')
for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true })
fs.renameSync(file + '.restoring', file)
`

const versionIdPattern = /^[0-9a-f-]{36}$/

function runNode(box: Pick<Devbox, 'exec'>, script: string, env: Record<string, string>) {
  return box.exec('node -e "$SPROUT_SCRIPT"', {
    timeoutSeconds: snapshotTimeoutSeconds,
    env: { ...env, SPROUT_SCRIPT: script },
  })
}

/**
 * Copies the preview database for the version; the oldest snapshots past the kept number go.
 * An app without a database (the client-only starter, or none made yet) has no snapshot.
 */
export async function snapshotData(
  context: { db: Database; box: Pick<Devbox, 'exec' | 'dataPath'> },
  applicationId: string,
  versionId: string,
): Promise<boolean> {
  if (!context.box.dataPath || !versionIdPattern.test(versionId)) return false
  const kept = await snapshottedVersions(context.db, applicationId)
  const dropped = kept.slice(KEPT_DATA_SNAPSHOTS - 1).map((version) => version.id)
  const result = await runNode(context.box, snapshotScript, {
    SPROUT_VERSION: versionId,
    SPROUT_DROP: dropped.join(','),
  })
  if (result.exitCode === 3) return false
  if (result.exitCode !== 0) {
    throw new Error(`Snapshot of the preview database failed: ${result.output.slice(-1000)}`)
  }
  await unmarkDataSnapshots(context.db, dropped)
  await markDataSnapshot(context.db, versionId)
  return true
}

/** Puts the version's snapshot back as the preview database, with the dev server stopped. */
export async function restoreData(
  box: Pick<Devbox, 'exec' | 'devServer'>,
  versionId: string,
): Promise<void> {
  if (!versionIdPattern.test(versionId)) throw new Error('Not a version id')
  const wasRunning = box.devServer.status() !== 'stopped'
  await box.devServer.stop()
  try {
    const result = await runNode(box, restoreScript, { SPROUT_VERSION: versionId })
    if (result.exitCode !== 0) {
      throw new Error(`Restoring the preview database failed: ${result.output.slice(-1000)}`)
    }
  } finally {
    if (wasRunning) await box.devServer.start()
  }
}
