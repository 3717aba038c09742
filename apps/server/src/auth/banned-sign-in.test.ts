import type { AdminOptions } from 'better-auth/plugins/admin'
import { describe, expect, it } from 'vitest'
import { bannedUserMessage } from './banned-sign-in.ts'

describe('the banned user message', () => {
  it('is what the admin plugin takes as bannedUserMessage', () => {
    const options: AdminOptions = { bannedUserMessage }
    expect(typeof options.bannedUserMessage).toBe('function')
  })

  it('says the reason, or only the suspension without one', () => {
    expect(bannedUserMessage({ banReason: 'Spam links' })).toBe(
      'Your account has been suspended: Spam links',
    )
    expect(bannedUserMessage({ banReason: '  ' })).toBe('Your account has been suspended.')
    expect(bannedUserMessage({ banReason: null })).toBe('Your account has been suspended.')
  })
})
