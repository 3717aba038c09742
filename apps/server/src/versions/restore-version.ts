import type { Database } from '@sprout/db/database.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import type { Version } from '@sprout/protocol/api/versions.ts'
import { and, eq } from 'drizzle-orm'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import { conflict, unprocessable } from '../http/app-error.ts'
import { queueCommit } from './checkpoint-queue.ts'
import { restoreData } from './data-snapshots.ts'
import { flushHandEdits } from './edit-versions.ts'
import { commitAndRecord, recordVersion } from './record-version.ts'
import { addRunNote } from './run-notes.ts'
import { checkedCommit, gitInBox } from './version-files.ts'
import { findVersion } from './version-store.ts'

// docs/product/versions.md "Restore" and docs/product/error-texts.md, word for word.
export const RESTORE_DURING_RUN =
  'A run is in progress in a conversation of this app. Wait for it to end (or stop it), then restore.'
export const RESTORE_BOX_NOT_READY =
  'The dev box of this application is not ready yet. Try again in a moment.'
export const RESTORE_NO_DATA = "This version has no copy of the preview's data to restore."

export type RestoreContext = { db: Database; devboxes: DevboxRuntime; userId: string }

/** Whether any conversation of the application has a running run (in any server process). */
export async function isRunActive(db: Database, applicationId: string): Promise<boolean> {
  const rows = await db
    .select({ id: runs.id })
    .from(runs)
    .innerJoin(conversations, eq(conversations.id, runs.conversationId))
    .where(and(eq(conversations.applicationId, applicationId), eq(runs.status, 'running')))
    .limit(1)
  return rows.length > 0
}

/** Makes the index and the files the commit's tree, and commits that as a new commit. */
const restoreScript = [
  'git -c core.hooksPath=/dev/null read-tree -u --reset "$SPROUT_COMMIT"',
  'git -c core.hooksPath=/dev/null commit -q --no-verify --allow-empty -m "$SPROUT_MESSAGE"',
  'git rev-parse HEAD',
].join('\n')

/**
 * Restores a version, never destructively (docs/product/versions.md "Restore"): uncommitted
 * changes become their own version first, then a new commit with the version's files is the
 * next version; the later ones stay. The preview database is put back too when asked.
 */
export async function restoreVersion(
  context: RestoreContext,
  applicationId: string,
  versionId: string,
  options: { restoreData?: boolean },
): Promise<Version> {
  const version = await findVersion(context.db, applicationId, versionId)
  if (options.restoreData && !version.hasDataSnapshot) throw unprocessable(RESTORE_NO_DATA)
  if (await isRunActive(context.db, applicationId)) throw conflict(RESTORE_DURING_RUN)
  const box = await context.devboxes.whenReady(applicationId)
  if (!box) throw conflict(RESTORE_BOX_NOT_READY)
  const record = { db: context.db, box }
  // Hand edits saved moments ago become their own 'Edited by' version (and the next run's note)
  // rather than 'Uncommitted changes' (docs/product/versions.md "Code").
  await flushHandEdits(applicationId, record)
  return queueCommit(applicationId, async () => {
    if (await isRunActive(context.db, applicationId)) throw conflict(RESTORE_DURING_RUN)
    await commitAndRecord(record, {
      applicationId,
      kind: 'edit',
      title: `Uncommitted changes before restoring version ${version.number}`,
      authorId: context.userId,
    })
    const title = `Restored version ${version.number}`
    const output = await gitInBox(box, restoreScript, {
      SPROUT_COMMIT: checkedCommit(version.commitId),
      SPROUT_MESSAGE: title,
    })
    const commitId = checkedCommit(output.trim().split('\n').at(-1) ?? '')
    if (options.restoreData) await restoreData(box, version.id)
    const restored = await recordVersion(record, {
      applicationId,
      kind: 'restore',
      commitId,
      title,
      restoredNumber: version.number,
      authorId: context.userId,
    })
    await addRunNote(context.db, applicationId, `The user restored version ${version.number}.`)
    return restored
  })
}
