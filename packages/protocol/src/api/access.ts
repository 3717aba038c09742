import { z } from 'zod'

// Who may sign up and how people sign in (docs/product/auth.md "Sign-up rules", "Single sign-on").

export const SIGN_UP_MODES = ['open', 'invite', 'closed'] as const
export type SignUpMode = (typeof SIGN_UP_MODES)[number]
export const SIGN_UP_DOMAINS_MAX = 50

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^@/, ''))
  .refine((value) => /^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/.test(value), {
    message: 'must be a domain such as example.com',
  })

export const signUpRulesSchema = z.strictObject({
  mode: z.enum(SIGN_UP_MODES),
  domains: z.array(domain).max(SIGN_UP_DOMAINS_MAX),
})
export type SignUpRulesBody = z.infer<typeof signUpRulesSchema>

/** GET /api/sign-in-options: what /signin, /signup and /forgot-password offer, for anyone. */
export type SignInOptions = {
  signUp: SignUpMode
  /** Domains that may sign up without an invitation (empty: any, when open). */
  signUpDomains: string[]
  /** Mail is configured: reset links and invitations are sent. */
  mail: boolean
  /** The single sign-on button's name, when one is configured. */
  singleSignOn: { name: string } | null
  /** SSO_ONLY: no password sign-in. */
  ssoOnly: boolean
}

export const setupClaimSchema = z.strictObject({ code: z.string().min(1).max(200) })
