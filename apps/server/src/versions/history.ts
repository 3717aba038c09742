import type { Version, VersionDiff, VersionPage } from '@sprout/protocol/api/versions.ts'
import { z } from 'zod'
import { findApplicationRecord } from '../applications/service.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import { conflict } from '../http/app-error.ts'
import type { RequestContext } from '../http/request-context.ts'
import { queueCommit } from './checkpoint-queue.ts'
import { recordStartIfNone } from './record-version.ts'
import { RESTORE_BOX_NOT_READY, restoreVersion } from './restore-version.ts'
import { versionDiff } from './version-diff.ts'
import { findVersion, listVersions } from './version-store.ts'

export const versionsQuerySchema = z.strictObject({ cursor: z.string().max(20).optional() })

export type HistoryContext = RequestContext & { devboxes: DevboxRuntime }

/** GET /api/applications/{id}/versions (docs/product/versions.md "History"). */
export async function listApplicationVersions(
  context: HistoryContext,
  applicationId: string,
  cursor: string | undefined,
): Promise<VersionPage> {
  const application = await findApplicationRecord(context, applicationId)
  const page = await listVersions(context.db, application.id, cursor)
  if (page.total > 0 || cursor !== undefined) return page
  // An app with no recorded version yet: its current commit is version 1 (when its box is open).
  const box = context.devboxes.box(application.id)
  if (!box) return page
  await queueCommit(application.id, () =>
    recordStartIfNone({ db: context.db, box }, application.id),
  )
  return listVersions(context.db, application.id, undefined)
}

/** GET /api/applications/{id}/versions/{versionId}/diff (docs/product/versions.md "Diffs"). */
export async function diffApplicationVersion(
  context: HistoryContext,
  applicationId: string,
  versionId: string,
): Promise<VersionDiff> {
  const application = await findApplicationRecord(context, applicationId)
  const version = await findVersion(context.db, application.id, versionId)
  const box = await context.devboxes.whenReady(application.id)
  if (!box) throw conflict(RESTORE_BOX_NOT_READY)
  return versionDiff(box, version)
}

/** POST /api/applications/{id}/versions/{versionId}/restore (docs/product/versions.md "Restore"). */
export async function restoreApplicationVersion(
  context: HistoryContext,
  applicationId: string,
  versionId: string,
  options: { restoreData?: boolean },
): Promise<Version> {
  const application = await findApplicationRecord(context, applicationId)
  return restoreVersion(
    { db: context.db, devboxes: context.devboxes, userId: context.userId },
    application.id,
    versionId,
    options,
  )
}
