import type { Database } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { Version } from '@sprout/protocol/api/versions.ts'
import { queueCommit } from './checkpoint-queue.ts'
import { flushHandEdits } from './edit-versions.ts'
import { commitAndRecord } from './record-version.ts'
import { takeRunNotes, withRunNotes } from './run-notes.ts'

/*
 * What the chat layer (runs/) asks of an app's versions (docs/product/versions.md): its commits in
 * the application's queue, a run's checkpoint recorded as a version, the hand edits committed
 * before a run, and the notes a run is told.
 */

export function queueApplicationCommit<T>(
  applicationId: string,
  work: () => Promise<T>,
): Promise<T> {
  return queueCommit(applicationId, work)
}

/** Commits the run's changes and records them as the app's next version (kind 'run'). */
export function recordRunVersion(
  context: { db: Database; box: Devbox },
  input: {
    applicationId: string
    title: string
    runId: string
    conversationId: string
    authorId: string | null
  },
): Promise<Version | undefined> {
  return commitAndRecord(context, { ...input, kind: 'run' })
}

/** The hand edits not committed yet become their version before the next run starts. */
export function commitPendingHandEdits(
  context: { db: Database; box: Devbox },
  applicationId: string,
): Promise<Version | undefined> {
  return flushHandEdits(applicationId, context)
}

/** The run's system prompt with the notes for it (taken: each is told once). */
export async function systemWithRunNotes(
  db: Database,
  applicationId: string,
  system: string,
): Promise<string> {
  return withRunNotes(system, await takeRunNotes(db, applicationId))
}
