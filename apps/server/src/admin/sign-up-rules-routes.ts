import { signUpRulesSchema } from '@sprout/protocol/api/access.ts'
import { Hono } from 'hono'
import type { SignUpRulesService } from '../auth/sign-up-rules.ts'
import type { AppEnv } from '../http/app-env.ts'
import { parseJsonBody } from '../http/parse-request.ts'
import { requirePlatformAdmin } from './require-platform-admin.ts'

/** docs/product/admin.md "Access tab": the admin's sign-up rules, stored over SIGNUP / SIGNUP_DOMAINS. */
export function signUpRulesRoutes(signUpRules: SignUpRulesService) {
  const app = new Hono<AppEnv>()
  app.use('/api/admin/sign-up-rules', requirePlatformAdmin)
  app.get('/api/admin/sign-up-rules', async (context) => context.json(await signUpRules.current()))
  app.put('/api/admin/sign-up-rules', async (context) => {
    const rules = await parseJsonBody(context, signUpRulesSchema)
    const domains = [...new Set(rules.domains)]
    await signUpRules.update({ mode: rules.mode, domains })
    return context.json({ mode: rules.mode, domains })
  })
  return app
}
