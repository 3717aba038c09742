import { ALLOWED_EMAILS_MAX } from '@sprout/protocol/api/app-visibility.ts'
import { EMAIL_MAX } from '@sprout/protocol/api/input-limits.ts'
import { describe, expect, it } from 'vitest'
import { ALLOWED_EMAILS_FULL, NOT_AN_EMAIL, readAllowedEmail } from './allowed-email.ts'

describe('readAllowedEmail', () => {
  it('reads an address as the server stores it: trimmed and lower-cased', () => {
    expect(readAllowedEmail(' Ada@Example.COM ', [])).toEqual({
      kind: 'new',
      email: 'ada@example.com',
    })
  })

  it('finds an address listed already, whatever its case', () => {
    expect(readAllowedEmail('ADA@example.com', ['ada@example.com'])).toEqual({ kind: 'listed' })
  })

  it('says how to fix what is not an address, or too long a one', () => {
    for (const text of ['ada', 'ada@example', 'ada @example.com', '@example.com']) {
      expect(readAllowedEmail(text, [])).toEqual({ kind: 'problem', problem: NOT_AN_EMAIL })
    }
    const long = `${'a'.repeat(EMAIL_MAX)}@example.com`
    expect(readAllowedEmail(long, [])).toEqual({
      kind: 'problem',
      problem: `This address must be at most ${EMAIL_MAX} characters.`,
    })
  })

  it(`stops at ${ALLOWED_EMAILS_MAX} addresses`, () => {
    const listed = Array.from({ length: ALLOWED_EMAILS_MAX }, (_, index) => `p${index}@example.com`)
    expect(readAllowedEmail('one.more@example.com', listed)).toEqual({
      kind: 'problem',
      problem: ALLOWED_EMAILS_FULL,
    })
  })
})
