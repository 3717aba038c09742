import { describe, expect, it } from 'vitest'
import {
  dropPartialSecretRequest,
  findSecretRequests,
  formatSecretRequest,
  secretSetMessage,
  splitSecretRequests,
} from './secret-request.ts'

describe('secret requests', () => {
  it('formats and finds the tag', () => {
    const tag = formatSecretRequest('OPENAI_API_KEY')
    expect(tag).toBe('<secret-request key="OPENAI_API_KEY" />')
    expect(findSecretRequests(`Add it here:\n${tag}\nand again ${tag}`)).toEqual(['OPENAI_API_KEY'])
  })

  it('refuses keys that are not environment-variable names', () => {
    expect(() => formatSecretRequest('bad key"')).toThrow(/letters, digits and underscores/)
  })

  it('splits lines at tags and ignores malformed ones', () => {
    expect(splitSecretRequests('<secret-request key="A"/><secret-request key="B">')).toEqual([
      { type: 'secret-request', key: 'A' },
      { type: 'secret-request', key: 'B' },
    ])
    expect(splitSecretRequests('<secret-request key="1X" />')).toEqual([
      { type: 'text', text: '<secret-request key="1X" />' },
    ])
  })

  it('drops only a partial tag at the end', () => {
    expect(dropPartialSecretRequest('Set it <secret-req')).toBe('Set it ')
    expect(dropPartialSecretRequest('Set it <secret-request key="A"')).toBe('Set it ')
    expect(dropPartialSecretRequest('Set it <secret-request key="A" />')).toBe(
      'Set it <secret-request key="A" />',
    )
    expect(dropPartialSecretRequest('if a <')).toBe('if a <')
    expect(dropPartialSecretRequest('if a <b')).toBe('if a <b')
  })

  it('writes the follow-up message', () => {
    expect(secretSetMessage('STRIPE_KEY')).toBe(
      'I\'ve set the secret "STRIPE_KEY". Please continue.',
    )
  })
})
