import { z } from 'zod'
import { boundedText, EMAIL_MAX } from './input-limits.ts'

// The Account page's calls (docs/product/auth.md "Account"); name, email and password changes go
// through better-auth's own endpoints (apps/server/src/auth/auth-endpoints.ts).

/** GET /api/account: what the page shows and whether mail can confirm a new address. */
export type AccountSummary = {
  name: string
  email: string
  emailVerified: boolean
  /** SMTP is set: a confirmed address changes once the new one is confirmed by mail. */
  mailConfigured: boolean
  /** Signed up with a password (not only through single sign-on). */
  hasPassword: boolean
}

/** One of the caller's sessions; never its token. */
export type AccountSession = {
  id: string
  /** 'Chrome on macOS', from the user agent; 'Unknown device' without one. */
  device: string
  /** The client address better-auth recorded, if any. */
  address: string | null
  createdAt: string
  lastActiveAt: string
  current: boolean
}

export type AccountOrganization = { id: string; name: string }

/** GET /api/account/deletion: what deleting the account would remove, or what blocks it. */
export type AccountDeletion = {
  /** Organizations the user alone owns while others are members: deletion is refused. */
  blockingOrganizations: AccountOrganization[]
  /** Organizations only the user belongs to (the personal one included), deleted with them. */
  deletedOrganizations: AccountOrganization[]
  /** The applications of those organizations. */
  applications: { id: string; name: string }[]
  /** Their builder conversations and explorations. */
  conversations: number
  explorations: number
  /** Organizations shared with others, which the user leaves. */
  leftOrganizations: AccountOrganization[]
}

export const deleteAccountRequestSchema = z.object({
  /** The account's email address, typed by the user. */
  confirm: boundedText(EMAIL_MAX),
})

export const DEVICE_UNKNOWN = 'Unknown device'
export const ACCOUNT_CONFIRM_MISMATCH = 'Type your email address to confirm.'
export const ACCOUNT_SESSION_NOT_FOUND = 'Session not found'
/** The 409 for the installation's last admin, as the Users tab refuses their demotion. */
export const ACCOUNT_LAST_ADMIN =
  'The last admin cannot delete their account: make another user an admin first.'

/** The 409 while the user is the only owner of organizations other people still use. */
export function soleOwnerMessage(organizationNames: string[]): string {
  const names = organizationNames.map((name) => `"${name}"`).join(', ')
  return `You are the only owner of ${names}, which other members still use. Invite another owner, or ask the other members to leave, before deleting your account.`
}
