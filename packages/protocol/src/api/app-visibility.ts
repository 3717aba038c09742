import { z } from 'zod'
import { EMAIL_MAX } from './input-limits.ts'

// Who may open an app's deploy (docs/product/deploys.md "Who may open a deploy").

export const APP_VISIBILITIES = ['public', 'organization', 'people'] as const
export type AppVisibility = (typeof APP_VISIBILITIES)[number]
export const ALLOWED_EMAILS_MAX = 100

/** The header the apps host sets to the signed identity, and removes from what a client sent. */
export const APP_IDENTITY_HEADER = 'x-sprout-identity'
/** How long one identity token holds; the apps host signs a new one well before that. */
export const APP_IDENTITY_LIFETIME_SECONDS = 300
/** Where an app's server finds the keys that sign it, under SPROUT_INTERNAL_URL. */
export const APP_IDENTITY_JWKS_PATH = '/.well-known/jwks.json'

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`)
  // U+FFFD is what a lone surrogate became when the body was made well-formed: no address has it.
  .refine(
    (value) => /^[^\s@\p{Cc}\uFFFD]+@[^\s@\p{Cc}\uFFFD]+\.[^\s@\p{Cc}\uFFFD]+$/u.test(value),
    {
      message: 'must be an email address such as ada@example.com',
    },
  )

/** `PATCH /api/applications/{id}`: an organization admin's change of who may open the app. */
export const updateApplicationRequestSchema = z
  .strictObject({
    visibility: z.enum(APP_VISIBILITIES),
    allowed_emails: z
      .array(email)
      .max(ALLOWED_EMAILS_MAX, `must list at most ${ALLOWED_EMAILS_MAX} addresses`)
      .optional()
      .transform((emails) => [...new Set(emails ?? [])]),
  })
  .refine((body) => body.visibility !== 'people' || body.allowed_emails.length > 0, {
    message: 'allowed_emails: list at least one address for people',
    path: ['allowed_emails'],
  })
export type UpdateApplicationRequest = z.input<typeof updateApplicationRequestSchema>

export const PERSONAL_APP_VISIBILITY_TEXT =
  'A personal app is public or open to listed people; only an organization’s apps can be for the organization.'
export const CHANGE_VISIBILITY_FORBIDDEN_TEXT =
  'Only an organization admin can change who may open this app.'

/** The identity an app's server reads (`currentUser(c)` in the full-stack starter). */
export type AppIdentityClaims = {
  iss: string
  aud: string
  sub: string
  name: string
  email: string
  /** The app's organization. */
  org: string
  /** The caller's role in it; `null` for someone listed by email who is not a member. */
  role: 'owner' | 'admin' | 'member' | null
  iat: number
  exp: number
}
