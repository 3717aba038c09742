import { z } from 'zod'
import { boundedText, URL_MAX } from './input-limits.ts'

// Single sign-on with OpenID Connect (docs/product/auth.md "Single sign-on", docs/product/admin.md
// "Access tab"): the admin's form, its answer, and the texts both sides show.

export const SINGLE_SIGN_ON_NAME_MAX = 60
export const SINGLE_SIGN_ON_CLIENT_ID_MAX = 500
export const SINGLE_SIGN_ON_SECRET_MAX = 2000

export const SINGLE_SIGN_ON_MESSAGES = {
  issuerFormat: 'The issuer must be an https:// address (http:// only for localhost)',
  nameRequired: 'The button name is required',
  clientIdRequired: 'The client ID is required',
  discoveryFailed: (issuer: string) =>
    `No OpenID Connect discovery document answers at ${issuer}/.well-known/openid-configuration: check the issuer address.`,
  issuerMismatch: (issuer: string, announced: string) =>
    `The discovery document at ${issuer} names the issuer ${announced}: use that address.`,
  passwordSignInOff: (name: string) =>
    `Password sign-in is turned off on this installation: sign in with ${name}.`,
} as const

/** The texts /signin shows for the `error` a failed single sign-on comes back with. */
export const SINGLE_SIGN_ON_ERRORS: Record<string, string> = {
  account_not_linked:
    'An account with this email exists already, and your identity provider has not confirmed the address (or the account has not): sign in with your password.',
  email_not_found: 'Your identity provider did not share an email address.',
  issuer_mismatch:
    'Single sign-on failed: the answer did not come from the configured identity provider.',
  state_mismatch:
    'Single sign-on failed: this sign-in link was used already or has expired. Try again.',
  state_invalid:
    'Single sign-on failed: this sign-in link was used already or has expired. Try again.',
  state_not_found:
    'Single sign-on failed: this sign-in link was used already or has expired. Try again.',
  access_denied: 'Single sign-on was cancelled.',
}
export const SINGLE_SIGN_ON_FALLBACK_ERROR = 'Single sign-on failed. Try again, or ask your admin.'

const isLoopback = (hostname: string) =>
  hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'

/** An issuer: https://, or http:// on this machine (a test provider); no query or fragment. */
export const singleSignOnIssuerSchema = boundedText(URL_MAX)
  .trim()
  .transform((value) => value.replace(/\/+$/, ''))
  .refine((value) => {
    if (!URL.canParse(value)) return false
    const url = new URL(value)
    if (url.search !== '' || url.hash !== '' || url.username !== '') return false
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))
  }, SINGLE_SIGN_ON_MESSAGES.issuerFormat)

/** PUT /api/admin/single-sign-on: a blank or missing secret keeps the stored one. */
export const saveSingleSignOnSchema = z.strictObject({
  issuer: singleSignOnIssuerSchema,
  clientId: boundedText(SINGLE_SIGN_ON_CLIENT_ID_MAX)
    .trim()
    .min(1, SINGLE_SIGN_ON_MESSAGES.clientIdRequired),
  clientSecret: boundedText(SINGLE_SIGN_ON_SECRET_MAX).optional(),
  name: boundedText(SINGLE_SIGN_ON_NAME_MAX).trim().min(1, SINGLE_SIGN_ON_MESSAGES.nameRequired),
})
export type SaveSingleSignOn = z.infer<typeof saveSingleSignOnSchema>

/** GET /api/admin/single-sign-on: never the secret, only whether there is one. */
export type SingleSignOnView = {
  source: 'environment' | 'admin' | 'none'
  issuer: string | null
  clientId: string | null
  name: string | null
  hasSecret: boolean
  /** The redirect URI to register at the identity provider. */
  callbackUrl: string
}
