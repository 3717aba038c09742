import { describe, expect, it } from 'vitest'
import { chatErrorText, isChatErrorType } from './error-text.ts'

describe('chatErrorText', () => {
  it('maps each chat error type to its text', () => {
    expect(chatErrorText({ content: '429', errorType: 'ratelimited' })).toBe(
      'AI provider is rate limiting requests',
    )
    expect(chatErrorText({ content: '529', errorType: 'overloaded' })).toBe(
      'AI provider is currently overloaded. Please try again in a moment',
    )
    expect(chatErrorText({ content: 'database unreachable', errorType: 'internal' })).toBe(
      'Server error: database unreachable',
    )
    expect(chatErrorText({ content: 'aborted', errorType: 'interrupt' })).toBe('User interrupted')
  })

  it('shows the raw text otherwise, or a fallback', () => {
    expect(chatErrorText({ content: 'Invalid API key', errorType: 'provider' })).toBe(
      'Invalid API key',
    )
    expect(chatErrorText({ content: 'Invalid API key' })).toBe('Invalid API key')
    expect(chatErrorText({ content: '  ' })).toBe('An unknown error occurred')
    expect(chatErrorText({})).toBe('An unknown error occurred')
    expect(chatErrorText({ errorType: 'internal' })).toBe('Server error: An unknown error occurred')
  })

  it('recognises the known types', () => {
    expect(isChatErrorType('interrupt')).toBe(true)
    expect(isChatErrorType('provider')).toBe(false)
    expect(isChatErrorType(undefined)).toBe(false)
  })
})
