import type { Database } from '@sprout/db/database.ts'
import { appHandEdits } from '@sprout/db/schema/app-versions.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { Version } from '@sprout/protocol/api/versions.ts'
import { and, eq, lte, sql } from 'drizzle-orm'
import { queueCommit } from './checkpoint-queue.ts'
import { commitAndRecord, editTitle } from './record-version.ts'
import { addRunNote } from './run-notes.ts'

/** How long after the last Save the hand edits become a version (docs/product/versions.md "Code"). */
export const EDIT_QUIET_MS = 15_000

type EditContext = { db: Database; box: Pick<Devbox, 'exec' | 'dataPath' | 'checkpoint'> }

// The quiet timers of this process, per application. The saves themselves are rows of
// app_hand_edits: after a restart the next run or restore still commits them as their version.
const timers = new Map<string, { context: EditContext; timer: ReturnType<typeof setTimeout> }>()

/** 'The user edited these files by hand: a, b.' for the application's next run. */
export function handEditNote(paths: string[]): string {
  return `The user edited these files by hand: ${paths.join(', ')}.`
}

/**
 * A Save in the Code tab: the application's hand edits become one version 'Edited by {name}:
 * {files}' once saves stop for `quietMs`, or when the next run or a restore starts
 * (flushHandEdits).
 */
export async function noteHandEdit(
  input: EditContext & {
    applicationId: string
    path: string
    editor: { id: string; name: string }
    quietMs?: number
  },
): Promise<void> {
  const { db, box, applicationId } = input
  await db
    .insert(appHandEdits)
    .values({
      applicationId,
      path: input.path,
      editorId: input.editor.id,
      editorName: input.editor.name,
    })
    .onConflictDoUpdate({
      target: [appHandEdits.applicationId, appHandEdits.path, appHandEdits.editorId],
      set: { editorName: input.editor.name, savedAt: sql`now()` },
    })
  const existing = timers.get(applicationId)
  if (existing) clearTimeout(existing.timer)
  const timer = setTimeout(() => {
    flushHandEdits(applicationId).catch((error: unknown) => {
      console.error('[versions] the hand edits could not be committed:', error)
    })
  }, input.quietMs ?? EDIT_QUIET_MS)
  // A pending edit never keeps the process alive; what is left is committed by the next run.
  timer.unref?.()
  timers.set(applicationId, { context: { db, box }, timer })
}

/**
 * Commits the application's hand edits now, as their own version, and leaves the next run a note
 * naming the files; resolves with the version (undefined when nothing was saved or the files
 * ended as they were). Without a timer of this process (after a restart) `context` is used.
 */
export async function flushHandEdits(
  applicationId: string,
  context?: EditContext,
): Promise<Version | undefined> {
  const timed = timers.get(applicationId)
  if (timed) {
    clearTimeout(timed.timer)
    timers.delete(applicationId)
  }
  const edits = timed?.context ?? context
  if (!edits) return undefined
  return queueCommit(applicationId, () => commitHandEdits(edits, applicationId))
}

async function commitHandEdits(
  context: EditContext,
  applicationId: string,
): Promise<Version | undefined> {
  const { db } = context
  const rows = await db
    .select()
    .from(appHandEdits)
    .where(eq(appHandEdits.applicationId, applicationId))
  if (rows.length === 0) return undefined
  const paths = [...new Set(rows.map((row) => row.path))].sort()
  const names = [...new Set(rows.map((row) => row.editorName))]
  const last = rows.reduce((latest, row) => (row.savedAt > latest.savedAt ? row : latest))
  const version = await commitAndRecord(context, {
    applicationId,
    kind: 'edit',
    title: editTitle(names.join(' and '), paths),
    authorId: last.editorId,
  })
  // Saves that came in while committing stay for the next version (the row's time has
  // microseconds, the Date read back milliseconds: hence the one more).
  const readUpTo = new Date(last.savedAt.getTime() + 1)
  await db
    .delete(appHandEdits)
    .where(and(eq(appHandEdits.applicationId, applicationId), lte(appHandEdits.savedAt, readUpTo)))
  if (version) await addRunNote(db, applicationId, handEditNote(paths))
  return version
}

/** A stopping server commits the saves it was waiting on, before the boxes stop. */
export async function flushAllHandEdits(): Promise<void> {
  await Promise.all(
    [...timers.keys()].map((applicationId) =>
      flushHandEdits(applicationId).catch((error: unknown) => {
        console.error('[versions] the hand edits could not be committed:', error)
      }),
    ),
  )
}

/** Whether this process waits to commit saves of the application (tests). */
export function hasPendingHandEdits(applicationId: string): boolean {
  return timers.has(applicationId)
}
