import type { Database } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import { and, eq, gt, sql } from 'drizzle-orm'
import type { Config } from '../config/config.ts'
import type { InstallationSettings } from '../settings/installation-settings.ts'

/** Who may create an account (docs/product/auth.md "Sign-up rules"). */
export type SignUpRules = { mode: 'open' | 'invite' | 'closed'; domains: string[] }

const settingKey = 'sign-up-rules'

export const signUpRefusals = {
  closed: 'Sign-up is closed on this installation. Ask an admin for an invitation.',
  invite:
    'Sign-up on this installation is by invitation. Ask an admin or an organization owner to invite you.',
  domain: (domains: string[]) => `Sign-up is open to addresses at ${domains.join(', ')} only.`,
}

export function createSignUpRules(options: {
  db: Database
  settings: InstallationSettings
  config: Pick<Config, 'signup' | 'adminEmails'>
}) {
  const { db, settings, config } = options
  const current = () => settings.get<SignUpRules>(settingKey, config.signup)

  const isInvited = async (email: string) => {
    const rows = await db
      .select({ id: schema.invitation.id })
      .from(schema.invitation)
      .where(
        and(
          eq(sql`lower(${schema.invitation.email})`, email),
          eq(schema.invitation.status, 'pending'),
          gt(schema.invitation.expiresAt, new Date()),
        ),
      )
      .limit(1)
    return rows.length > 0
  }

  return {
    current,
    /** The admin's choice; the environment's value stays the default until one is stored. */
    update: (rules: SignUpRules) => settings.set(settingKey, rules),
    /**
     * Why `email` may not create an account, or undefined when it may: invited addresses and
     * ADMIN_EMAILS always may (and the setup link's one sign-up, account-hooks.ts); the domains
     * list narrows 'open' and widens 'invite'.
     */
    refusal: async (email: string): Promise<string | undefined> => {
      const address = email.toLowerCase()
      if (config.adminEmails.includes(address)) return undefined
      const rules = await current()
      const domain = address.slice(address.lastIndexOf('@') + 1)
      const inListedDomain = rules.domains.includes(domain)
      if (rules.mode === 'open' && (rules.domains.length === 0 || inListedDomain)) return undefined
      if (rules.mode === 'invite' && inListedDomain) return undefined
      if (await isInvited(address)) return undefined
      if (rules.mode === 'open') return signUpRefusals.domain(rules.domains)
      return rules.mode === 'invite' ? signUpRefusals.invite : signUpRefusals.closed
    },
  }
}

export type SignUpRulesService = ReturnType<typeof createSignUpRules>
