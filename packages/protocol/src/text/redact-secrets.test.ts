import { describe, expect, it } from 'vitest'
import { createSecretRedactor, redactSecrets } from './redact-secrets.ts'

describe('redactSecrets', () => {
  it('replaces every value with [secret KEY], longest first, and leaves short values alone', () => {
    const secrets = { API_KEY: 'sk-abc123', LONG: 'sk-abc123-and-more', PIN: 'abc', ODD: 'a.b*c' }
    expect(redactSecrets('key=sk-abc123 long=sk-abc123-and-more', secrets)).toBe(
      'key=[secret API_KEY] long=[secret LONG]',
    )
    expect(redactSecrets('abc a.b*c axbxc', secrets)).toBe('abc [secret ODD] axbxc')
    expect(redactSecrets('nothing here', {})).toBe('nothing here')
  })

  it('redacts every string inside a chunk, keeping its shape', () => {
    const redactor = createSecretRedactor({ TOKEN: 'tok-999' })
    const chunk = {
      type: 'tool-output-available',
      output: 'got tok-999',
      nested: [{ text: 'tok-999' }, 3],
    }
    expect(redactor.redactValue(chunk)).toEqual({
      type: 'tool-output-available',
      output: 'got [secret TOKEN]',
      nested: [{ text: '[secret TOKEN]' }, 3],
    })
  })

  it('catches a value split across streamed pieces, and holds back no more than it must', () => {
    const redactor = createSecretRedactor({ TOKEN: 'secret-value-42', OTHER: 'zzzz' })
    const stream = redactor.stream()
    const pieces = ['export X=secr', 'et-val', 'ue-42\nsecret', ' is fine\n', 'zz', 'zz', ' sec']
    const out = pieces.map((piece) => stream.push(piece))
    expect(out[0]).toBe('export X=')
    expect(out.join('') + stream.flush()).toBe(
      'export X=[secret TOKEN]\nsecret is fine\n[secret OTHER] sec',
    )
    // Every piece that can no longer start a secret goes out at once.
    expect(stream.push('plain text')).toBe('plain text')
  })

  it('splits at every position without leaking', () => {
    const value = 'pk_live_0123456789abcdef'
    const redactor = createSecretRedactor({ STRIPE: value })
    const text = `a ${value} b ${value}`
    for (let cut = 0; cut <= text.length; cut++) {
      for (let second = cut; second <= text.length; second += 5) {
        const stream = redactor.stream()
        const joined =
          stream.push(text.slice(0, cut)) +
          stream.push(text.slice(cut, second)) +
          stream.push(text.slice(second)) +
          stream.flush()
        expect(joined).toBe('a [secret STRIPE] b [secret STRIPE]')
      }
    }
  })

  it('redacts values of the largest size a vault takes, among many, in one pass', () => {
    // 64 KB of a two-byte character: past what one regular expression of the values may hold.
    const large = 'é'.repeat(32 * 1024)
    const secrets: Record<string, string> = { LARGE: large, WORD: 'secret', INNER: 'cret ab' }
    for (let index = 0; index < 50; index++) secrets[`KEY_${index}`] = `value-${index}-xyz`
    const redactor = createSecretRedactor(secrets)
    expect(redactor.redact(`a ${large} b value-7-xyz c secret d`)).toBe(
      'a [secret LARGE] b [secret KEY_7] c [secret WORD] d',
    )
    // A marker is never read again: the scan goes on after it.
    expect(redactor.redact('secret ab')).toBe('[secret WORD] ab')
  })
})
