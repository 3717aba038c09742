import { describe, expect, it } from 'vitest'
import { formatAddRandom, parseAddRandom } from './add-random.ts'

describe('add_random format', () => {
  it('formats the exact text', () => {
    expect(formatAddRandom({ added: 7, result: 12 })).toBe(
      'Randomly added: 7, for a final result of: 12',
    )
  })

  it('round-trips integers, negatives and decimals', () => {
    for (const value of [
      { added: 7, result: 12 },
      { added: -3, result: -1 },
      { added: 0.25, result: 10.75 },
    ]) {
      expect(parseAddRandom(formatAddRandom(value))).toEqual(value)
    }
  })

  it('parses text with surrounding whitespace', () => {
    expect(parseAddRandom('  Randomly added: 4, for a final result of: 9\n')).toEqual({
      added: 4,
      result: 9,
    })
  })

  it('rejects other text', () => {
    expect(parseAddRandom('Randomly added: x, for a final result of: 9')).toBeNull()
    expect(parseAddRandom('Error: num must be a number')).toBeNull()
  })
})
