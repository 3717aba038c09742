import type { Database } from '@sprout/db/database.ts'
import { deleteAccountRequestSchema } from '@sprout/protocol/api/account.ts'
import { Hono } from 'hono'
import type { AuthCache } from '../auth/auth-cache.ts'
import type { UserStreams } from '../auth/user-streams.ts'
import type { Config } from '../config/config.ts'
import type { AppEnv } from '../http/app-env.ts'
import type { Origins } from '../http/origins.ts'
import { parseJsonBody } from '../http/parse-request.ts'
import {
  type AccountLifecycle,
  deleteAccount,
  describeAccountDeletion,
} from './account-deletion.ts'
import {
  type AccountContext,
  getAccountSummary,
  listAccountSessions,
  revokeAccountSession,
} from './service.ts'

export type AccountRoutesOptions = {
  db: Database
  origins: Origins
  config: Pick<Config, 'mail' | 'adminEmails'>
  authCache: Pick<AuthCache, 'flush'>
  userStreams: Pick<UserStreams, 'endSessions'>
  lifecycle: AccountLifecycle
}

/**
 * The Account page's own calls (docs/product/auth.md "Account"); the caller's sessions are read
 * here because better-auth's list carries every session's token.
 */
export function accountRoutes(options: AccountRoutesOptions) {
  const { db, origins, config, authCache, userStreams, lifecycle } = options
  // Sessions gone: none is served from the cache, and their open streams end.
  const endSessions = async (sessionIds: string[]) => {
    await authCache.flush()
    await userStreams.endSessions(sessionIds)
  }
  const app = new Hono<AppEnv>()
  const contextOf = (variables: AppEnv['Variables']): AccountContext => ({
    db,
    userId: variables.user.id,
    sessionId: variables.session.id,
  })

  app.get('/api/account', async (context) =>
    context.json(
      await getAccountSummary(contextOf(context.var), config.mail.smtpUrl !== undefined),
    ),
  )

  app.get('/api/account/sessions', async (context) =>
    context.json(await listAccountSessions(contextOf(context.var))),
  )

  app.delete('/api/account/sessions/:id', async (context) => {
    await endSessions(await revokeAccountSession(contextOf(context.var), context.req.param('id')))
    return context.json({ success: true })
  })

  app.get('/api/account/deletion', async (context) =>
    context.json(await describeAccountDeletion(contextOf(context.var))),
  )

  app.delete('/api/account', async (context) => {
    const input = await parseJsonBody(context, deleteAccountRequestSchema)
    try {
      const deletion = { ...contextOf(context.var), origins, config, lifecycle, endSessions }
      await deleteAccount(deletion, input.confirm)
    } finally {
      // Sessions may be gone even when a later step failed.
      await authCache.flush()
    }
    return context.json({ success: true })
  })

  return app
}
