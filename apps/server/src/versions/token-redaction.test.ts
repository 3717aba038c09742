// Issue 29, item 15: what a git host echoes back is shown without the token, in any encoding.
import { describe, expect, it } from 'vitest'
import { decodeHistoryBundle } from './history-bundle.ts'
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

describe('decodeHistoryBundle', () => {
  const head = 'e5c824e5daade8f2bf51adddb8d52fc814694eaa'
  it('accepts the base64 of a v2 or v3 bundle header followed by a pack', () => {
    expect(decodeHistoryBundle(base64(`# v2 git bundle\n${head} HEAD\n\nPACK\u0000`))).toBeDefined()
    expect(
      decodeHistoryBundle(base64(`# v3 git bundle\n@object-format=sha1\n${head} HEAD\n\nPACK`)),
    ).toBeDefined()
  })

  it('refuses a gitfile, other text, loose base64 and a header without a pack', () => {
    for (const output of [
      base64('gitdir: /srv/sprout/.git\n'),
      'gitdir: /srv/sprout/.git',
      base64(`# v2 git bundle\n${head} HEAD\n\n`),
      base64(`# v2 git bundle\n/etc/passwd HEAD\n\nPACK`),
      base64(`# v2 git bundle\n@object-format=sha1\n${head} HEAD\n\nPACK`),
      `${base64(`# v2 git bundle\n${head} HEAD\n\nPACK`)} junk`,
      '',
    ]) {
      expect(decodeHistoryBundle(output), output).toBeUndefined()
    }
  })
})
