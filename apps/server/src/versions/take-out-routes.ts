import type { Database } from '@sprout/db/database.ts'
import { gitRemoteRequestSchema } from '@sprout/protocol/api/versions.ts'
import { Hono } from 'hono'
import { findApplicationRecord } from '../applications/service.ts'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import type { AppEnv } from '../http/app-env.ts'
import { type AppError, badRequest, conflict, unprocessable } from '../http/app-error.ts'
import type { Origins } from '../http/origins.ts'
import { parseJsonBody } from '../http/parse-request.ts'
import { requestContextOf } from '../http/request-context.ts'
import { integrationHosts } from '../integrations/service.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import type { VaultKeyring } from '../sealing/master-keys.ts'
import { workspaceZip } from './download.ts'
import { checkGitTarget } from './git-hosts.ts'
import { pushHistory } from './git-push.ts'
import {
  deleteGitRemote,
  gitRemoteForPush,
  readGitRemote,
  writeGitRemote,
} from './git-remote-store.ts'

const pushing = new Set<string>()

/**
 * A connection's token goes only to the service it was given for: the remote must be on the host
 * of the integration's authorization or token URL (docs/product/versions.md "Push to Git").
 */
async function checkIntegrationHost(
  db: Database,
  remote: { url: string; integration: string },
  refuse: (message: string) => AppError,
) {
  const hosts = await integrationHosts(db, remote.integration)
  if (hosts.includes(new URL(remote.url.trim()).hostname)) return
  throw refuse(
    `The ${remote.integration} connection's token is sent only to ${hosts.join(' or ')}: use a remote URL there, or sign in with a token.`,
  )
}

/** docs/product/versions.md "Download", "Push to Git": any member of the application's organization. */
export function takeOutRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
  devboxes: DevboxRuntime
  keyring: VaultKeyring
  gitAllowedHosts: string[]
  /**
   * The access token of the organization's connection to an integration (integrations/, wired
   * by the composition root); AppError 404 when not connected, 409 when it needs reconnecting.
   */
  integrationToken: (organizationId: string, integration: string) => Promise<string>
}) {
  const { db, origins, devboxes, keyring, gitAllowedHosts } = options
  const app = new Hono<AppEnv>()
  for (const route of ['download', 'git-remote', 'push']) {
    app.use(`/api/applications/:id/${route}`, requireOrganization(db, options.memberships))
  }
  const applicationOf = (variables: AppEnv['Variables'], applicationId: string) =>
    findApplicationRecord(requestContextOf({ db, origins }, variables), applicationId)

  app.get('/api/applications/:id/git-remote', async (context) => {
    const application = await applicationOf(context.var, context.req.param('id'))
    return context.json(await readGitRemote(db, application.id))
  })

  app.put('/api/applications/:id/git-remote', async (context) => {
    const input = await parseJsonBody(context, gitRemoteRequestSchema)
    const application = await applicationOf(context.var, context.req.param('id'))
    await checkGitTarget(input.url, gitAllowedHosts)
    if (input.integration) {
      await checkIntegrationHost(db, { url: input.url, integration: input.integration }, badRequest)
    }
    return context.json(await writeGitRemote(db, keyring, application.id, input))
  })

  app.delete('/api/applications/:id/git-remote', async (context) => {
    const application = await applicationOf(context.var, context.req.param('id'))
    await deleteGitRemote(db, application.id)
    return context.json({ success: true })
  })

  app.post('/api/applications/:id/push', async (context) => {
    const application = await applicationOf(context.var, context.req.param('id'))
    const remote = await gitRemoteForPush(db, keyring, application.id)
    if (!remote) throw badRequest('Set the remote URL first.')
    const target = await checkGitTarget(remote.url, gitAllowedHosts)
    // Checked again at each push: an admin may have moved the integration since.
    if (remote.integration) {
      await checkIntegrationHost(db, { ...remote, integration: remote.integration }, unprocessable)
    }
    const token = remote.integration
      ? await options.integrationToken(application.organizationId, remote.integration)
      : remote.token
    const box = await devboxes.whenReady(application.id)
    if (!box) throw conflict('The dev box is not ready yet. Try again in a moment.')
    if (pushing.has(application.id)) throw conflict('A push of this app is already running.')
    pushing.add(application.id)
    try {
      return context.json(await pushHistory({ box, target, branch: remote.branch, token }))
    } finally {
      pushing.delete(application.id)
    }
  })

  app.get('/api/applications/:id/download', async (context) => {
    const application = await applicationOf(context.var, context.req.param('id'))
    const box = await devboxes.whenReady(application.id)
    if (!box) throw conflict('The dev box is not ready yet. Try again in a moment.')
    const body = await workspaceZip(box)
    return new Response(body, {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': attachment(`${application.slug || 'app'}.zip`),
        'cache-control': 'no-store',
      },
    })
  })
  return app
}

/** The app's name as the file name: ASCII in `filename`, the exact name in `filename*`. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^A-Za-z0-9._-]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}
