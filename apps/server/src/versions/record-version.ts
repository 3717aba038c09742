import type { Database } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { Version } from '@sprout/protocol/api/versions.ts'
import { queueCommit } from './checkpoint-queue.ts'
import { snapshotData } from './data-snapshots.ts'
import { changedFiles, headCommit, parentCommit } from './version-files.ts'
import { countVersions, insertVersion, type NewVersion } from './version-store.ts'

export type VersionBox = Pick<Devbox, 'exec' | 'dataPath'>
export type RecordContext = { db: Database; box: VersionBox }

/** The title of version 1 when the history starts (docs/product/versions.md "History"). */
export const START_TITLE = 'Start'

/**
 * An application's history starts with the commit before its first recorded one (the starter's
 * commit for a new app): version 1, kind 'start'.
 */
async function recordStart(context: RecordContext, applicationId: string, commitId: string) {
  return insertVersion(context.db, {
    applicationId,
    kind: 'start',
    commitId,
    title: START_TITLE,
    files: await changedFiles(context.box, commitId),
  })
}

/**
 * Records a commit of the application's workspace as its next version, with the files it changed
 * (git in the box) and a snapshot of the preview database. Call it inside the application's
 * commit queue (checkpoint-queue.ts), right after the commit.
 */
export async function recordVersion(
  context: RecordContext,
  input: Omit<NewVersion, 'files'>,
): Promise<Version> {
  if (input.kind !== 'start' && (await countVersions(context.db, input.applicationId)) === 0) {
    const parent = await parentCommit(context.box, input.commitId)
    if (parent) await recordStart(context, input.applicationId, parent)
  }
  const version = await insertVersion(context.db, {
    ...input,
    files: await changedFiles(context.box, input.commitId),
  })
  try {
    if (await snapshotData(context, input.applicationId, version.id)) {
      return { ...version, hasDataSnapshot: true }
    }
  } catch (error) {
    // The code's version stands without its data: only 'Also restore the preview's data' is lost.
    console.error('[versions] data snapshot failed:', error)
  }
  return version
}

/** An app with no version yet gets its current commit as version 1 (on listing its history). */
export async function recordStartIfNone(context: RecordContext, applicationId: string) {
  if ((await countVersions(context.db, applicationId)) > 0) return
  const head = await headCommit(context.box)
  if (head) await recordStart(context, applicationId, head)
}

/** 'Edited by {name}: {files}' (docs/product/versions.md "History"). */
export function editTitle(name: string, paths: string[]): string {
  const shown = paths.slice(0, 3).join(', ')
  const more = paths.length > 3 ? ` and ${paths.length - 3} more` : ''
  return `Edited by ${name}: ${shown}${more}`
}

/** Commits every change of the workspace and records it; undefined when nothing changed. */
export async function commitAndRecord(
  context: { db: Database; box: VersionBox & Pick<Devbox, 'checkpoint'> },
  input: Omit<NewVersion, 'files' | 'commitId'>,
): Promise<Version | undefined> {
  const commitId = await context.box.checkpoint(input.title)
  if (!commitId) return undefined
  return recordVersion(context, { ...input, commitId })
}

/**
 * The same, in the application's commit queue: what hand edits call ('Edited by {name}: {files}',
 * kind 'edit').
 */
export function commitVersion(
  context: { db: Database; box: VersionBox & Pick<Devbox, 'checkpoint'> },
  input: Omit<NewVersion, 'files' | 'commitId'>,
): Promise<Version | undefined> {
  return queueCommit(input.applicationId, () => commitAndRecord(context, input))
}
