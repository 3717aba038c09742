import { describe, expect, it } from 'vitest'
import { SECRET_VALUE_MAX_BYTES, secretValueProblem } from '../api/vault.ts'
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

  describe('never throws, for any value the vault takes', () => {
    const largestValues: Record<string, string> = {
      // Each is SECRET_VALUE_MAX_BYTES (64 KB) in UTF-8.
      ASTRAL: '\u{1F600}'.repeat(SECRET_VALUE_MAX_BYTES / 4),
      ACCENT: '\u00e9'.repeat(SECRET_VALUE_MAX_BYTES / 2),
      HAN: '\u4e2d'.repeat(Math.floor(SECRET_VALUE_MAX_BYTES / 3)),
      LATIN: 'a'.repeat(SECRET_VALUE_MAX_BYTES),
      METACHARACTERS: ['.*+?^$', '{}()|[]\\-/'].join('').repeat(SECRET_VALUE_MAX_BYTES / 16),
      MIXED: 'a\u00e9\u4e2d\u{1F600}.|'.repeat(Math.floor(SECRET_VALUE_MAX_BYTES / 12)),
    }
    const texts = ['ready \u279c http://localhost:5173', 'plain Latin-1 text \u00fc', '\u{1F680}']

    it('redacts the largest values of every kind, one at a time, in Latin-1 and two-byte text', () => {
      for (const [key, value] of Object.entries(largestValues)) {
        expect(secretValueProblem(value)).toBeUndefined()
        expect(new TextEncoder().encode(value).length).toBeGreaterThan(SECRET_VALUE_MAX_BYTES - 12)
        const redactor = createSecretRedactor({ [key]: value })
        for (const text of texts) {
          expect(redactor.redact(text)).toBe(text)
          expect(redactor.redact(`${text}${value}${text}`)).toBe(`${text}[secret ${key}]${text}`)
        }
        const stream = redactor.stream()
        const half = Math.floor(value.length / 2)
        const streamed =
          stream.push(`\u279c ${value.slice(0, half)}`) + stream.push(value.slice(half))
        expect(streamed + stream.flush()).toBe(`\u279c [secret ${key}]`)
      }
    })

    it('redacts them all together, and values just under where a pattern stops compiling', () => {
      const redactor = createSecretRedactor(largestValues)
      for (const text of texts)
        expect(redactor.redact(`${text} ${largestValues.ASTRAL}`)).toBe(`${text} [secret ASTRAL]`)
      const nearLimit = { EDGE: '\u{1F600}'.repeat(16_383), DOTS: '.'.repeat(32_767) }
      const edge = createSecretRedactor(nearLimit)
      for (const text of texts) {
        expect(edge.redact(`${text}${nearLimit.EDGE}`)).toBe(`${text}[secret EDGE]`)
        expect(edge.redact(`${text}${nearLimit.DOTS}`)).toBe(`${text}[secret DOTS]`)
      }
    })

    it('streams output crafted against a largest value in linear time, holding back what it must', () => {
      const value = `${'a'.repeat(SECRET_VALUE_MAX_BYTES - 1)}b`
      const redactor = createSecretRedactor({ CRAFTED: value })
      const started = performance.now()
      const stream = redactor.stream()
      expect(stream.push(`${'a'.repeat(SECRET_VALUE_MAX_BYTES - 1)}c`)).toHaveLength(
        SECRET_VALUE_MAX_BYTES,
      )
      expect(stream.push('x a')).toBe('x ')
      expect(stream.push(value.slice(1)) + stream.flush()).toBe('[secret CRAFTED]')
      expect(performance.now() - started).toBeLessThan(1000)
    })

    it('redacts with 1,000 secrets of the largest size, in bounded time', () => {
      const secrets: Record<string, string> = {}
      for (let index = 0; index < 1000; index++) {
        secrets[`KEY_${index}`] = `${index}:`.padEnd(
          SECRET_VALUE_MAX_BYTES,
          index % 2 ? 'x' : '\u00e9',
        )
      }
      const started = performance.now()
      const redactor = createSecretRedactor(secrets)
      const text = `\u279c start ${secrets.KEY_7} middle ${secrets.KEY_998} end`
      expect(redactor.redact(text)).toBe('\u279c start [secret KEY_7] middle [secret KEY_998] end')
      expect(redactor.redact('\u279c a line of ordinary output\n'.repeat(100))).toContain(
        'ordinary',
      )
      const stream = redactor.stream()
      expect(stream.push('\u279c  Local:   http://localhost:5173/\n') + stream.flush()).toContain(
        'Local',
      )
      expect(performance.now() - started).toBeLessThan(10_000)
    })
  })
})
