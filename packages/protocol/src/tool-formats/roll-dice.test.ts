import { describe, expect, it } from 'vitest'
import { formatDiceNotation, formatRollDice, parseRollDice } from './roll-dice.ts'

describe('roll_dice format', () => {
  it('formats one die', () => {
    expect(formatRollDice({ sides: 6, rolls: [4] })).toBe('Rolled a d6: 4')
  })

  it('formats several dice with their total', () => {
    expect(formatRollDice({ sides: 20, rolls: [1, 15, 20] })).toBe(
      'Rolled 3 d20 dice: [1, 15, 20] (total: 36)',
    )
  })

  it('round-trips', () => {
    for (const rolls of [[3], [1, 2], [6, 6, 6, 6, 6]]) {
      const text = formatRollDice({ sides: 6, rolls })
      expect(parseRollDice(text)).toEqual({
        sides: 6,
        rolls,
        total: rolls.reduce((sum, value) => sum + value, 0),
      })
    }
  })

  it('rejects other text and inconsistent counts', () => {
    expect(parseRollDice('Rolled 3 d6 dice: [1, 2] (total: 3)')).toBeNull()
    expect(parseRollDice('Rolled a die')).toBeNull()
  })

  it('writes the dice notation with a 1d6 default', () => {
    expect(formatDiceNotation({})).toBe('1d6')
    expect(formatDiceNotation({ count: 3 })).toBe('3d6')
    expect(formatDiceNotation({ count: 2, sides: 20 })).toBe('2d20')
  })
})
