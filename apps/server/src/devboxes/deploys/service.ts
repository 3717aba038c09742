import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { deploys } from '@sprout/db/schema/deploys.ts'
import type { AppServerManager } from '@sprout/devbox/app-servers/app-server-manager.ts'
import { buildDeploy, DeployBuildError } from '@sprout/devbox/deploy.ts'
import { unmountUnder } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import { and, eq } from 'drizzle-orm'
import { findApplicationRecord } from '../../applications/service.ts'
import { conflict, unprocessable } from '../../http/app-error.ts'
import type { RequestContext } from '../../http/request-context.ts'
import type { DevboxRuntime } from '../runtime/devbox-runtime.ts'

const buildTimeoutSeconds = 300
const running = new Set<string>()

export type DeployContext = RequestContext & { devboxes: DevboxRuntime; deploysDir: string }

/**
 * Builds the app in its box and publishes it; the previous deploy keeps serving until the new one
 * is complete (with a server: until the new server answers its health route), and a failed
 * build or server start leaves it untouched and reports the error with the output's tail.
 */
export async function deployApplication(context: DeployContext, applicationId: string) {
  const application = await findApplicationRecord(context, applicationId)
  const box = await context.devboxes.whenReady(application.id)
  if (!box) throw conflict('The dev box is not ready yet. Try again in a moment.')
  if (running.has(application.id))
    throw conflict('A deploy of this application is already running.')
  running.add(application.id)
  const deployId = randomUUID()
  try {
    await context.db.insert(deploys).values({
      id: deployId,
      applicationId: application.id,
      status: 'building',
      createdBy: context.userId,
    })
    try {
      await buildDeploy({
        box,
        deploysDir: context.deploysDir,
        appId: application.id,
        timeoutSeconds: buildTimeoutSeconds,
        appServers: context.devboxes.appServers,
      })
    } catch (error) {
      // The server's output may print a vault value: it is redacted (docs/product/vault.md).
      const secrets = await context.devboxes.secretsFor(application.id)
      const message = createSecretRedactor(secrets).redact(
        error instanceof Error ? error.message : String(error),
      )
      await context.db
        .update(deploys)
        .set({
          status: 'failed',
          error: toStorableText(cutText(message, 8000)),
          finishedAt: new Date(),
        })
        .where(eq(deploys.id, deployId))
      if (error instanceof DeployBuildError) throw unprocessable(message)
      throw error
    }
    await context.db.transaction(async (transaction) => {
      await transaction
        .update(deploys)
        .set({ status: 'superseded' })
        .where(and(eq(deploys.applicationId, application.id), eq(deploys.status, 'live')))
      await transaction
        .update(deploys)
        .set({ status: 'live', finishedAt: new Date() })
        .where(eq(deploys.id, deployId))
    })
    return { success: true as const, prod_url: context.origins.apps(application.slug) }
  } finally {
    running.delete(application.id)
  }
}

/** The application is deleted: its production server stops, its deploys and data go. */
export async function removeDeploys(
  deploysDir: string,
  applicationId: string,
  appServers?: AppServerManager,
) {
  await appServers?.stop(applicationId)
  // As root the data folder is its own filesystem (APPS_DISK_MB); its image is deleted with it.
  await unmountUnder(path.join(deploysDir, applicationId))
  await rm(path.join(deploysDir, applicationId), { recursive: true, force: true })
  // A request that came in meanwhile may have started it again from the folder just removed.
  await appServers?.stop(applicationId)
}
