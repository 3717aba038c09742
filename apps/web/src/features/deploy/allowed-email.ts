import {
  ALLOWED_EMAILS_MAX,
  updateApplicationRequestSchema,
} from '@sprout/protocol/api/app-visibility.ts'

export type AllowedEmailReading =
  | { kind: 'new'; email: string }
  /** Listed already: nothing to add. */
  | { kind: 'listed' }
  | { kind: 'problem'; problem: string }

export const ALLOWED_EMAILS_FULL = `You can list at most ${ALLOWED_EMAILS_MAX} addresses.`
export const NOT_AN_EMAIL = 'Enter an email address such as ada@example.com.'

/**
 * What the user typed, read the way the server will (the protocol's schema): trimmed and
 * lower-cased, or why it cannot be listed.
 */
export function readAllowedEmail(text: string, listed: readonly string[]): AllowedEmailReading {
  const parsed = updateApplicationRequestSchema.safeParse({
    visibility: 'people',
    allowed_emails: [text],
  })
  const email = parsed.data?.allowed_emails[0]
  if (email === undefined) {
    const issue = parsed.error?.issues.find((candidate) => candidate.code === 'too_big')
    return { kind: 'problem', problem: issue ? `This address ${issue.message}.` : NOT_AN_EMAIL }
  }
  if (listed.includes(email)) return { kind: 'listed' }
  if (listed.length >= ALLOWED_EMAILS_MAX) return { kind: 'problem', problem: ALLOWED_EMAILS_FULL }
  return { kind: 'new', email }
}
