import {
  adminUserRoleRequestSchema,
  adminUsersQuerySchema,
  banUserRequestSchema,
} from '@sprout/protocol/api/admin-users.ts'
import { Hono } from 'hono'
import type { AppEnv } from '../../http/app-env.ts'
import { parseJsonBody, parseQuery } from '../../http/parse-request.ts'
import { requirePlatformAdmin } from '../require-platform-admin.ts'
import {
  type AdminUsersContext,
  banUser,
  createResetLink,
  listUsers,
  sendResetMail,
  setUserRole,
  signOutEverywhere,
  unbanUser,
} from './service.ts'

/** docs/product/admin.md "Users tab": platform admins only (403 for everybody else). */
export function adminUserRoutes(users: AdminUsersContext) {
  const app = new Hono<AppEnv>()
  app.use('/api/admin/users', requirePlatformAdmin)
  app.use('/api/admin/users/*', requirePlatformAdmin)
  app.get('/api/admin/users', async (context) =>
    context.json(await listUsers(users, parseQuery(context, adminUsersQuerySchema))),
  )
  app.post('/api/admin/users/:id/role', async (context) => {
    const { role } = await parseJsonBody(context, adminUserRoleRequestSchema)
    return context.json(await setUserRole(users, context.req.param('id'), role))
  })
  app.post('/api/admin/users/:id/ban', async (context) => {
    const { reason } = await parseJsonBody(context, banUserRequestSchema)
    const actorId = context.var.user.id
    return context.json(await banUser(users, actorId, context.req.param('id'), reason))
  })
  app.post('/api/admin/users/:id/unban', async (context) =>
    context.json(await unbanUser(users, context.req.param('id'))),
  )
  app.post('/api/admin/users/:id/sign-out', async (context) =>
    context.json(await signOutEverywhere(users, context.req.param('id'))),
  )
  app.post('/api/admin/users/:id/reset-link', async (context) =>
    context.json(await createResetLink(users, context.req.param('id'))),
  )
  app.post('/api/admin/users/:id/reset-mail', async (context) =>
    context.json(await sendResetMail(users, context.req.param('id'))),
  )
  return app
}
