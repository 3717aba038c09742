import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import { APIError, type BetterAuthOptions } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import type { Config } from '../config/config.ts'
import { refuseUnsafeRedirectTargets } from './redirect-targets.ts'
import type { SetupLink } from './setup-link.ts'
import type { SignUpRulesService } from './sign-up-rules.ts'

/** The header the /setup page signs up with, so the sign-up rules let the first admin in. */
export const setupCodeHeader = 'x-sprout-setup-code'

type AccountHookOptions = {
  config: Pick<Config, 'adminEmails'>
  db: Database
  signUpRules: Pick<SignUpRulesService, 'refusal'>
  setupLink: Pick<SetupLink, 'refusal' | 'take'>
}

const setupCodeOf = (headers: Headers | undefined) => headers?.get(setupCodeHeader) ?? ''

const refuse = (message: string) => {
  throw new APIError('FORBIDDEN', { message, code: 'SIGN_UP_REFUSED' })
}

/**
 * Throws the sign-up rule's refusal (docs/product/auth.md "Sign-up rules") for `email`. A sign-up
 * carrying the setup code passes them only as the one sign-up the link admits, its admin's; any
 * other use of the code is refused. `spend` spends the code (the user-create hook), so of two
 * sign-ups with it at once only one gets in.
 */
function signUpGate({ signUpRules, setupLink }: AccountHookOptions) {
  return async (email: string, headers: Headers | undefined, spend = false) => {
    const setupCode = setupCodeOf(headers)
    if (setupCode !== '') {
      const refusal = spend ? await setupLink.take(setupCode) : await setupLink.refusal(setupCode)
      if (refusal) refuse(refusal)
      return true
    }
    const refusal = await signUpRules.refusal(email)
    if (refusal) refuse(refusal)
    return false
  }
}

/**
 * Sprout's checks before every better-auth endpoint: each redirect target (redirect-targets.ts),
 * and the sign-up rules before a password sign-up and before an address change.
 *
 * The rules run before a sign-up because with REQUIRE_EMAIL_VERIFICATION better-auth answers a
 * 403 of the user-create hook with a made-up success (it hides which addresses have accounts),
 * and the rules decide on the address alone, so refusing first tells nobody anything. An address
 * change is held to them too (docs/product/auth.md "Sign-up rules"): otherwise an account let in
 * at an allowed domain could move at once to any other address.
 */
export function signUpRequestHooks(options: AccountHookOptions): BetterAuthOptions['hooks'] {
  const gate = signUpGate(options)
  return {
    before: createAuthMiddleware(async (context) => {
      refuseUnsafeRedirectTargets(context)
      const body = context.body as { email?: unknown; newEmail?: unknown } | undefined
      if (context.path === '/sign-up/email' && typeof body?.email === 'string') {
        await gate(body.email, context.headers)
      }
      if (context.path === '/change-email' && typeof body?.newEmail === 'string') {
        await gate(body.newEmail, undefined)
      }
    }),
  }
}

/** What happens as an account is made: who may, who is admin, and its personal organization. */
export function accountHooks(
  options: AccountHookOptions,
): NonNullable<BetterAuthOptions['databaseHooks']> {
  const { config, db } = options
  const gate = signUpGate(options)
  return {
    user: {
      create: {
        // docs/product/auth.md "Sign-up rules" and "The first admin": an account is an
        // admin when ADMIN_EMAILS lists it, or when it is made or claimed through the setup link.
        // Made through it, the code is spent here, at sign-up, not by a later call: with
        // REQUIRE_EMAIL_VERIFICATION the new account has no session until its link is opened.
        before: async (user, context) => {
          const viaSetupLink = await gate(user.email, context?.headers, true)
          const isListed = config.adminEmails.includes(user.email.toLowerCase())
          return { data: { ...user, role: isListed || viaSetupLink ? 'admin' : 'user' } }
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
      // The same rules when a confirmed change lands (its link may be opened after they changed).
      update: {
        before: async (user) => {
          if (typeof user.email === 'string') await gate(user.email, undefined)
        },
      },
    },
  }
}
