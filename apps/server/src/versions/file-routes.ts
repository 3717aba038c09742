import type { Database } from '@sprout/db/database.ts'
import { FILE_PATH_MAX, saveFileRequestSchema } from '@sprout/protocol/api/versions.ts'
import { Hono } from 'hono'
import { z } from 'zod'
import { findApplicationRecord } from '../applications/service.ts'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import type { AppEnv } from '../http/app-env.ts'
import { conflict } from '../http/app-error.ts'
import type { Origins } from '../http/origins.ts'
import { parseJsonBody, parseQuery } from '../http/parse-request.ts'
import { requestContextOf } from '../http/request-context.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import { noteHandEdit } from './edit-versions.ts'
import { isRunActive, RESTORE_BOX_NOT_READY } from './restore-version.ts'
import { listFolder, readFileContent, saveFileContent } from './workspace-files.ts'

const folderQuerySchema = z.strictObject({ path: z.string().max(FILE_PATH_MAX).optional() })
const fileQuerySchema = z.strictObject({ path: z.string().min(1).max(FILE_PATH_MAX) })

/** docs/product/versions.md "Code": the Code tab's calls, for any member of the organization. */
export function fileRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
  devboxes: DevboxRuntime
  /** How long after the last Save the edits become a version (edit-versions.ts). */
  editQuietMs?: number
}) {
  const { db, origins, devboxes } = options
  const app = new Hono<AppEnv>()
  app.use('/api/applications/:id/files', requireOrganization(db, options.memberships))
  app.use('/api/applications/:id/files/*', requireOrganization(db, options.memberships))
  const boxOf = async (variables: AppEnv['Variables'], applicationId: string) => {
    const record = await findApplicationRecord(
      requestContextOf({ db, origins }, variables),
      applicationId,
    )
    const box = await devboxes.whenReady(record.id)
    if (!box) throw conflict(RESTORE_BOX_NOT_READY)
    return { applicationId: record.id, box }
  }

  app.get('/api/applications/:id/files', async (context) => {
    const query = parseQuery(context, folderQuerySchema)
    const { box } = await boxOf(context.var, context.req.param('id'))
    return context.json(await listFolder(box, query.path ?? ''))
  })

  app.get('/api/applications/:id/files/content', async (context) => {
    const query = parseQuery(context, fileQuerySchema)
    const { applicationId, box } = await boxOf(context.var, context.req.param('id'))
    const runActive = await isRunActive(db, applicationId)
    return context.json(await readFileContent(box, query.path, runActive))
  })

  app.put('/api/applications/:id/files/content', async (context) => {
    const input = await parseJsonBody(context, saveFileRequestSchema)
    const { applicationId, box } = await boxOf(context.var, context.req.param('id'))
    const saved = await saveFileContent(box, input, await isRunActive(db, applicationId))
    const { user } = context.var
    await noteHandEdit({
      db,
      box,
      applicationId,
      path: saved.path,
      editor: { id: user.id, name: user.name || user.email },
      quietMs: options.editQuietMs,
    })
    return context.json(saved)
  })
  return app
}
