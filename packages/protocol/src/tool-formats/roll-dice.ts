import { DEFAULT_DICE_COUNT, DEFAULT_DICE_SIDES } from '../constants.ts'

/** roll_dice's output: 'Rolled a d6: 4', or 'Rolled 3 d6 dice: [1, 5, 2] (total: 8)'. */
export interface DiceRoll {
  sides: number
  rolls: number[]
  total: number
}

const singlePattern = /^Rolled a d(\d+): (\d+)$/
const severalPattern = /^Rolled (\d+) d(\d+) dice: \[([\d,\s]*)\] \(total: (\d+)\)$/

export function formatRollDice(roll: Pick<DiceRoll, 'sides' | 'rolls'>): string {
  if (roll.rolls.length === 1) return `Rolled a d${roll.sides}: ${roll.rolls[0]}`
  const total = roll.rolls.reduce((sum, value) => sum + value, 0)
  return `Rolled ${roll.rolls.length} d${roll.sides} dice: [${roll.rolls.join(', ')}] (total: ${total})`
}

/** Null when the text is not roll_dice's format (the view then shows it raw). */
export function parseRollDice(text: string): DiceRoll | null {
  const trimmed = text.trim()
  const single = singlePattern.exec(trimmed)
  if (single?.[1] && single[2]) {
    const value = Number(single[2])
    return { sides: Number(single[1]), rolls: [value], total: value }
  }
  const several = severalPattern.exec(trimmed)
  if (!several?.[1] || !several[2] || several[3] === undefined || !several[4]) return null
  const rolls = several[3]
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '')
    .map(Number)
  if (rolls.length !== Number(several[1])) return null
  return { sides: Number(several[2]), rolls, total: Number(several[4]) }
}

/** 'CdS' for the summary line; 1d6 unless the input says otherwise. */
export function formatDiceNotation(input: { count?: number; sides?: number }): string {
  return `${input.count ?? DEFAULT_DICE_COUNT}d${input.sides ?? DEFAULT_DICE_SIDES}`
}
