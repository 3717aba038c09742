import type { Database } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { Version } from '@sprout/protocol/api/versions.ts'
import { commitVersion, editTitle } from './record-version.ts'
import { addRunNote } from './run-notes.ts'

/** How long after the last Save the hand edits become a version (docs/product/versions.md "Code"). */
export const EDIT_QUIET_MS = 15_000

type PendingEdits = {
  db: Database
  box: Pick<Devbox, 'exec' | 'dataPath' | 'checkpoint'>
  paths: Set<string>
  editors: Map<string, string>
  lastEditorId: string
  timer: ReturnType<typeof setTimeout>
}

// One process's saves not yet committed, per application (like checkpoint-queue.ts's queues).
const pending = new Map<string, PendingEdits>()

/** 'The user edited these files by hand: a, b.' for the application's next run. */
export function handEditNote(paths: string[]): string {
  return `The user edited these files by hand: ${paths.join(', ')}.`
}

/**
 * A Save in the Code tab: the application's hand edits become one version 'Edited by {name}:
 * {files}' once saves stop for `quietMs`, or when the next run starts (flushHandEdits).
 */
export function noteHandEdit(input: {
  db: Database
  box: PendingEdits['box']
  applicationId: string
  path: string
  editor: { id: string; name: string }
  quietMs?: number
}): void {
  const existing = pending.get(input.applicationId)
  if (existing) clearTimeout(existing.timer)
  const timer = setTimeout(() => {
    flushHandEdits(input.applicationId).catch((error: unknown) => {
      console.error('[versions] the hand edits could not be committed:', error)
    })
  }, input.quietMs ?? EDIT_QUIET_MS)
  // A pending edit never keeps the process alive; what is left is committed by the next run.
  timer.unref?.()
  const edits: PendingEdits = existing ?? {
    db: input.db,
    box: input.box,
    paths: new Set(),
    editors: new Map(),
    lastEditorId: input.editor.id,
    timer,
  }
  edits.box = input.box
  edits.timer = timer
  edits.paths.add(input.path)
  edits.editors.set(input.editor.id, input.editor.name)
  edits.lastEditorId = input.editor.id
  pending.set(input.applicationId, edits)
}

/**
 * Commits the application's pending hand edits now, as their own version, and leaves the next
 * run a note naming the files; resolves with the version (undefined when nothing was pending or
 * the files ended as they were).
 */
export async function flushHandEdits(applicationId: string): Promise<Version | undefined> {
  const edits = pending.get(applicationId)
  if (!edits) return undefined
  pending.delete(applicationId)
  clearTimeout(edits.timer)
  const paths = [...edits.paths].sort()
  const names = [...new Set(edits.editors.values())]
  const version = await commitVersion(
    { db: edits.db, box: edits.box },
    {
      applicationId,
      kind: 'edit',
      title: editTitle(names.join(' and '), paths),
      authorId: edits.lastEditorId,
    },
  )
  if (version) await addRunNote(edits.db, applicationId, handEditNote(paths))
  return version
}

/** Whether the application has saves not yet committed (tests). */
export function hasPendingHandEdits(applicationId: string): boolean {
  return pending.has(applicationId)
}
