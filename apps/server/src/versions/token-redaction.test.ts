// Issue 29, item 15: what a git host echoes back is shown without the token, in any encoding.
import { describe, expect, it } from 'vitest'
import { redactToken } from './token-redaction.ts'

const token = 'ghp_Redact/Me+Now=42'
const base64 = (text: string) => Buffer.from(text).toString('base64')

describe('redactToken', () => {
  it('hides the token raw, URL-encoded and Basic-encoded with any user', () => {
    for (const echoed of [
      token,
      encodeURIComponent(token),
      base64(`x-access-token:${token}`),
      base64(`user:${token}`),
      base64(`someone-else:${token}`),
      Buffer.from(`oauth2:${token}`).toString('base64url'),
      encodeURIComponent(base64(`x-access-token:${token}`)),
      `Basic${base64(`x:${token}`)}`,
    ]) {
      const shown = redactToken(`remote error: got Authorization: ${echoed} | done`, token)
      expect(shown, echoed).not.toContain(echoed)
      expect(shown).toContain('[token]')
      expect(shown).toMatch(/^remote error: got Authorization: .*\| done$/)
    }
  })

  it('leaves a text without the token as it is', () => {
    const text = 'fatal: unable to access https://example.com/a.git/: HTTP 500 cGxhaW4='
    expect(redactToken(text, token)).toBe(text)
    expect(redactToken(text, undefined)).toBe(text)
  })
})
