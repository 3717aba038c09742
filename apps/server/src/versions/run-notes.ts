import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { appRunNotes } from '@sprout/db/schema/app-versions.ts'
import { asc, eq, inArray } from 'drizzle-orm'

/**
 * Notes for the application's next agent run about what changed outside the agent ('The user
 * restored version N.', the files the user changed by hand), in the order they were made.
 */
export async function addRunNote(db: Database, applicationId: string, text: string) {
  await db.insert(appRunNotes).values({ id: randomUUID(), applicationId, text })
}

/** The notes, removed: a run is told each once. */
export async function takeRunNotes(db: Database, applicationId: string): Promise<string[]> {
  const rows = await db
    .select({ id: appRunNotes.id, text: appRunNotes.text })
    .from(appRunNotes)
    .where(eq(appRunNotes.applicationId, applicationId))
    .orderBy(asc(appRunNotes.createdAt))
  if (rows.length === 0) return []
  await db.delete(appRunNotes).where(
    inArray(
      appRunNotes.id,
      rows.map((row) => row.id),
    ),
  )
  return rows.map((row) => row.text)
}

/** The system prompt with the notes at its end, under their own heading. */
export function withRunNotes(system: string, notes: string[]): string {
  if (notes.length === 0) return system
  const lines = notes.map((note) => `- ${note}`).join('\n')
  return `${system}\n\n## Since your last run\n${lines}`
}
