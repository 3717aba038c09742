import { type SignInOptions, setupClaimSchema } from '@sprout/protocol/api/access.ts'
import { Hono } from 'hono'
import type { Config } from '../config/config.ts'
import type { AppEnv } from '../http/app-env.ts'
import { forbidden, unauthorized } from '../http/app-error.ts'
import { parseJsonBody } from '../http/parse-request.ts'
import type { Mailer } from '../mail/mailer.ts'
import type { AuthCache } from './auth-cache.ts'
import type { SetupLink } from './setup-link.ts'
import type { SignUpRulesService } from './sign-up-rules.ts'

type AccessOptions = {
  config: Pick<Config, 'ssoOnly'>
  mailer: Pick<Mailer, 'configured'>
  signUpRules: Pick<SignUpRulesService, 'current'>
  setupLink: SetupLink
  singleSignOn: () => { name: string } | undefined
}

/** For anybody, signed in or not: what the sign-in screens offer, and whether a setup link works. */
export function signInOptionRoutes(options: AccessOptions) {
  const { config, mailer, signUpRules, setupLink, singleSignOn } = options
  return new Hono<AppEnv>()
    .get('/api/sign-in-options', async (context) => {
      const rules = await signUpRules.current()
      const sso = singleSignOn()
      const answer: SignInOptions = {
        signUp: rules.mode,
        signUpDomains: rules.domains,
        mail: mailer.configured,
        singleSignOn: sso ? { name: sso.name } : null,
        ssoOnly: config.ssoOnly && sso !== undefined,
      }
      return context.json(answer)
    })
    .get('/api/setup', async (context) => {
      const code = context.req.query('code') ?? ''
      const adminExists = await setupLink.hasAdmin()
      return context.json({ adminExists, valid: !adminExists && (await setupLink.isValid(code)) })
    })
}

/** POST /api/setup: the signed-in caller becomes the installation's first admin. */
export function setupClaimRoutes(options: { setupLink: SetupLink; authCache: AuthCache }) {
  const { setupLink, authCache } = options
  return new Hono<AppEnv>().post('/api/setup', async (context) => {
    const { code } = await parseJsonBody(context, setupClaimSchema)
    const user = context.var.user
    if (!user) throw unauthorized()
    const refusal = await setupLink.claim(user.id, code)
    if (refusal) throw forbidden(refusal)
    await authCache.flush()
    return context.json({ isAdmin: true })
  })
}
