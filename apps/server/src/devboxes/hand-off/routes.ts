import type { Database } from '@sprout/db/database.ts'
import { devboxTokenRequestSchema } from '@sprout/protocol/api/applications.ts'
import { Hono } from 'hono'
import type { MembershipCache } from '../../auth/auth-cache.ts'
import type { AppEnv } from '../../http/app-env.ts'
import type { Origins } from '../../http/origins.ts'
import { parseJsonBody } from '../../http/parse-request.ts'
import { issueDevboxToken } from './service.ts'

export function devboxAuthRoutes(options: {
  db: Database
  origins: Origins
  memberships: MembershipCache
}) {
  return new Hono<AppEnv>().post('/api/org/devbox-token', async (context) => {
    const { devbox_url: devboxUrl } = await parseJsonBody(context, devboxTokenRequestSchema)
    const token = await issueDevboxToken({ ...options, userId: context.var.user.id }, devboxUrl)
    return context.json({ token })
  })
}
