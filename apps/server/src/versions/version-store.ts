import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { appVersions } from '@sprout/db/schema/app-versions.ts'
import { user } from '@sprout/db/schema/auth.ts'
import {
  VERSIONS_PAGE_SIZE,
  type Version,
  type VersionFileChange,
  type VersionKind,
  type VersionPage,
} from '@sprout/protocol/api/versions.ts'
import { and, count, desc, eq, lt, max } from 'drizzle-orm'
import { badRequest, notFound } from '../http/app-error.ts'

export type NewVersion = {
  applicationId: string
  kind: VersionKind
  commitId: string
  title: string
  runId?: string | null
  conversationId?: string | null
  restoredNumber?: number | null
  authorId?: string | null
  files: VersionFileChange[]
}

const columns = {
  id: appVersions.id,
  number: appVersions.number,
  kind: appVersions.kind,
  commitId: appVersions.commitId,
  title: appVersions.title,
  runId: appVersions.runId,
  conversationId: appVersions.conversationId,
  restoredNumber: appVersions.restoredNumber,
  authorId: appVersions.authorId,
  authorName: user.name,
  files: appVersions.files,
  hasDataSnapshot: appVersions.hasDataSnapshot,
  createdAt: appVersions.createdAt,
}

type VersionRow = {
  id: string
  number: number
  kind: string
  commitId: string
  title: string
  runId: string | null
  conversationId: string | null
  restoredNumber: number | null
  authorId: string | null
  authorName: string | null
  files: unknown
  hasDataSnapshot: boolean
  createdAt: Date
}

function presentVersion(row: VersionRow): Version {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind as VersionKind,
    commitId: row.commitId,
    title: row.title,
    runId: row.runId,
    conversationId: row.conversationId,
    restoredNumber: row.restoredNumber,
    author: row.authorId ? { id: row.authorId, name: row.authorName ?? '' } : null,
    createdAt: row.createdAt.toISOString(),
    files: row.files as VersionFileChange[],
    hasDataSnapshot: row.hasDataSnapshot,
  }
}

/** Numbers are taken inside the application's commit queue (checkpoint-queue.ts): one at a time. */
export async function insertVersion(db: Database, input: NewVersion): Promise<Version> {
  const [last] = await db
    .select({ number: max(appVersions.number) })
    .from(appVersions)
    .where(eq(appVersions.applicationId, input.applicationId))
  const id = randomUUID()
  await db.insert(appVersions).values({
    id,
    applicationId: input.applicationId,
    number: (last?.number ?? 0) + 1,
    kind: input.kind,
    commitId: input.commitId,
    title: input.title,
    runId: input.runId ?? null,
    conversationId: input.conversationId ?? null,
    restoredNumber: input.restoredNumber ?? null,
    authorId: input.authorId ?? null,
    files: input.files,
  })
  return findVersion(db, input.applicationId, id)
}

export async function countVersions(db: Database, applicationId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(appVersions)
    .where(eq(appVersions.applicationId, applicationId))
  return row?.total ?? 0
}

/** The cursor is the number of the page's last version; the next page starts below it. */
export async function listVersions(
  db: Database,
  applicationId: string,
  cursor: string | undefined,
): Promise<VersionPage> {
  if (cursor !== undefined && !/^[1-9]\d{0,9}$/.test(cursor)) {
    throw badRequest('Invalid query parameter "cursor"')
  }
  const rows = await db
    .select(columns)
    .from(appVersions)
    .leftJoin(user, eq(user.id, appVersions.authorId))
    .where(
      and(
        eq(appVersions.applicationId, applicationId),
        cursor === undefined ? undefined : lt(appVersions.number, Number(cursor)),
      ),
    )
    .orderBy(desc(appVersions.number))
    .limit(VERSIONS_PAGE_SIZE + 1)
  const page = rows.slice(0, VERSIONS_PAGE_SIZE)
  const last = page.at(-1)
  return {
    versions: page.map(presentVersion),
    nextCursor: rows.length > VERSIONS_PAGE_SIZE && last ? String(last.number) : null,
    total: await countVersions(db, applicationId),
  }
}

const versionIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A version of this application; another application's (or a malformed id) is not found. */
export async function findVersion(
  db: Database,
  applicationId: string,
  versionId: string,
): Promise<Version> {
  if (!versionIdPattern.test(versionId)) throw notFound('Version not found')
  const [row] = await db
    .select(columns)
    .from(appVersions)
    .leftJoin(user, eq(user.id, appVersions.authorId))
    .where(and(eq(appVersions.applicationId, applicationId), eq(appVersions.id, versionId)))
    .limit(1)
  if (!row) throw notFound('Version not found')
  return presentVersion(row)
}

export async function markDataSnapshot(db: Database, versionId: string): Promise<void> {
  await db.update(appVersions).set({ hasDataSnapshot: true }).where(eq(appVersions.id, versionId))
}

/** Versions past the kept snapshots lose the mark (data-snapshots.ts deletes their files). */
export async function unmarkDataSnapshots(db: Database, versionIds: string[]): Promise<void> {
  for (const id of versionIds) {
    await db.update(appVersions).set({ hasDataSnapshot: false }).where(eq(appVersions.id, id))
  }
}

export async function snapshottedVersions(db: Database, applicationId: string) {
  return db
    .select({ id: appVersions.id, number: appVersions.number })
    .from(appVersions)
    .where(and(eq(appVersions.applicationId, applicationId), eq(appVersions.hasDataSnapshot, true)))
    .orderBy(desc(appVersions.number))
}
