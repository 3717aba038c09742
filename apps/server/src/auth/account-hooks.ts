import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import { APIError, type BetterAuthOptions } from 'better-auth'
import type { Config } from '../config/config.ts'
import type { SetupLink } from './setup-link.ts'
import type { SignUpRulesService } from './sign-up-rules.ts'

/** The header the /setup page signs up with, so the sign-up rules let the first admin in. */
export const setupCodeHeader = 'x-sprout-setup-code'

/** What happens as an account is made: who may, who is admin, and its personal organization. */
export function accountHooks(options: {
  config: Pick<Config, 'adminEmails'>
  db: Database
  signUpRules: Pick<SignUpRulesService, 'refusal'>
  setupLink: Pick<SetupLink, 'isValid'>
}): NonNullable<BetterAuthOptions['databaseHooks']> {
  const { config, db, signUpRules, setupLink } = options
  return {
    user: {
      create: {
        // docs/product/auth.md "Sign-up rules" and "The first admin": an account is an
        // admin only when ADMIN_EMAILS lists it (or later, through the setup link).
        before: async (user, context) => {
          const setupCode = context?.headers?.get(setupCodeHeader) ?? ''
          const viaSetupLink = setupCode !== '' && (await setupLink.isValid(setupCode))
          const refusal = await signUpRules.refusal(user.email, viaSetupLink)
          if (refusal)
            throw new APIError('FORBIDDEN', { message: refusal, code: 'SIGN_UP_REFUSED' })
          const isListed = config.adminEmails.includes(user.email.toLowerCase())
          return { data: { ...user, role: isListed ? 'admin' : 'user' } }
        },
        after: async (user) => {
          const organizationId = randomUUID()
          await db.transaction(async (transaction) => {
            await transaction.insert(schema.organization).values({
              id: organizationId,
              name: 'Personal',
              slug: `personal-${user.id}`,
              isPersonal: true,
              createdAt: new Date(),
            })
            await transaction.insert(schema.member).values({
              id: randomUUID(),
              organizationId,
              userId: user.id,
              role: 'owner',
              createdAt: new Date(),
            })
          })
        },
      },
    },
  }
}
