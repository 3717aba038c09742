import { describe, expect, it } from 'vitest'
import { findMismatch } from './json-subset.ts'

describe('findMismatch', () => {
  const answer = {
    entries: [
      { id: 1, name: 'Ada', message: 'Hi' },
      { id: 2, name: 'Grace' },
    ],
    total: 2,
  }

  it('accepts the listed keys of objects and items found anywhere in arrays', () => {
    expect(findMismatch({ total: 2 }, answer)).toBeUndefined()
    expect(
      findMismatch({ entries: [{ name: 'Grace' }, { message: 'Hi' }] }, answer),
    ).toBeUndefined()
    expect(findMismatch({ entries: [] }, answer)).toBeUndefined()
  })

  it('answers where the first mismatch is', () => {
    expect(findMismatch({ total: 3 }, answer)).toBe('$.total: expected 3, got 2')
    expect(findMismatch({ count: 2 }, answer)).toBe('$.count: missing')
    expect(findMismatch({ entries: [{ name: 'Linus' }] }, answer)).toBe(
      '$.entries[0]: no item matches {"name":"Linus"}',
    )
    expect(findMismatch({ total: [] }, answer)).toBe('$.total: expected an array')
    expect(findMismatch({ entries: { name: 'Ada' } }, answer)).toBe('$.entries: expected an object')
    expect(findMismatch({ ok: true }, null)).toBe('$: expected an object')
  })
})
